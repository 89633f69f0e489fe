import type { AgentResult } from '../../../domain';
import { controlToolNames, judgeAnswer } from '../../core/chain/grounding';
import type { RunContext } from '../../core/state/run-context';
import type { RunOutcome } from '../../loop/react-loop';

/** The workflow's result: the outcome, the whole chain, and the ledger and counters of every Temporal run of this agent run. */
export function agentResult({ input, chain, state }: RunContext, outcome: RunOutcome): AgentResult {
  // The same judgement as the synthesis step's, also for endings that write none (a refusal, an error).
  const judged = judgeAnswer(chain.steps, outcome.reason, controlToolNames(input));
  return {
    success: outcome.reason === 'success',
    finalAnswer: outcome.answer,
    terminationReason: outcome.reason,
    grounding: judged.grounding,
    answerSources: judged.sources,
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
