import type { AgentResult, ReasoningStep } from '../../../domain';
import { controlToolNames, givenEvidence, judgeAnswer, type JudgedAnswer } from '../../core/chain/grounding';
import type { RunContext } from '../../core/state/run-context';
import type { RunOutcome } from '../../loop/react-loop';

/** The workflow's result: the outcome, the whole chain, and the ledger and counters of every Temporal run of this agent run. */
export function agentResult({ input, chain, state }: RunContext, outcome: RunOutcome): AgentResult {
  // The synthesis step's judgement; the same rules for endings that write none (a refusal, an error).
  const judged =
    synthesisJudgement(chain.steps, outcome.reason) ??
    judgeAnswer(chain.steps, outcome.reason, controlToolNames(input), {
      answer: outcome.answer,
      given: givenEvidence(input, chain.steps),
    });
  const check = judged.grounding === 'grounded' ? undefined : judged.claimCheck;
  const unsupported = check?.unsupported ?? [];
  const contradicted = check?.contradicted ?? [];
  const unchecked = check?.unchecked ?? [];
  return {
    success: outcome.reason === 'success',
    finalAnswer: outcome.answer,
    terminationReason: outcome.reason,
    grounding: judged.grounding,
    answerSources: judged.sources,
    ...(unsupported.length > 0 ? { unsupportedClaims: unsupported } : {}),
    ...(contradicted.length > 0 ? { contradictedClaims: contradicted } : {}),
    ...(unchecked.length > 0 ? { uncheckedClaims: unchecked } : {}),
    ...(outcome.confidence !== undefined ? { confidence: outcome.confidence } : {}),
    ...(outcome.output !== undefined ? { output: outcome.output } : {}),
    chain: chain.snapshot(),
    usage: state.usage,
    costUsd: state.costUsd,
    iterations: state.iteration,
    maxIterations: input.maxIterations,
    modelCalls: state.modelCalls,
    toolCalls: state.toolCalls,
    formatErrors: state.formatErrors,
    cachedCalls: state.cachedCalls,
    continuations: state.continuations,
    executionTimeMs: Date.now() - state.startedAtMs,
    ...(state.times ? { times: state.times } : {}),
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(state.delegated.runs > 0 ? { delegated: state.delegated } : {}),
    ...(chain.plan ? { plan: chain.plan } : {}),
    ...(chain.agent ? { agent: chain.agent } : {}),
  };
}

/** The judgement the run's synthesis step recorded for this ending, when it wrote one. */
function synthesisJudgement(steps: readonly ReasoningStep[], reason: RunOutcome['reason']): JudgedAnswer | undefined {
  const last = steps.at(-1);
  if (last?.type !== 'synthesis' || last.synthesis.terminationReason !== reason || !last.synthesis.grounding)
    return undefined;
  const { grounding, sources, claimCheck } = last.synthesis;
  return { grounding, sources, ...(claimCheck ? { claimCheck } : {}) };
}
