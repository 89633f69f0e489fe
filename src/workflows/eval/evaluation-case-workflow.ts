import {
  ChildWorkflowCancellationType,
  ParentClosePolicy,
  isCancellation,
  setCurrentDetails,
  startChild,
} from '@temporalio/workflow';
import type { AgentResult } from '../../domain';
import { DEFAULT_FINISH_TOOL, DEFAULT_GIVE_UP_TOOL } from '../../domain/run/constants';
import { markdownCode } from '../../domain/text/markdown-escape';
import type { EvalCase } from '../../domain/evaluation/eval-case';
import type { EvalVariant, JudgeSettings } from '../../domain/evaluation/evaluation-input';
import {
  MAX_SCORE_WHY_CHARS,
  caseWorkflowId,
  unscoredResult,
  type CaseResult,
  type Score,
} from '../../domain/evaluation/case-result';
import { modelTimes } from '../../domain/chain/model-times';
import { factsOf, type LoopToolNames, type ScoringFacts } from '../../domain/evaluation/scoring-facts';
import { scoreCase } from '../../domain/evaluation/score-case';
import { failureMessage } from '../core/failure-message';
import { activities } from '../activity-proxies';
import { caseAgentInput } from './case-agent-input';
import type { BudgetGrant } from './eval-budget';
import { fitCaseResult } from './fit-case-result';

/** One unit of an evaluation: what its case workflow needs to run and score it, and nothing of the other units. */
export interface EvaluationCaseInput {
  evaluationId: string;
  /** The evaluation's name and repeat count, for the run's summary in the Web UI. */
  evaluationName: string;
  repeats: number;
  case: EvalCase;
  variant: EvalVariant;
  repeat: number;
  baseInput?: Record<string, unknown>;
  /** The budget's grant for this run (eval-budget.ts). */
  grant: BudgetGrant;
  /** Worker scorers (and `judge`) named by the evaluation and the case, without repeats. */
  scorers: string[];
  judge?: JudgeSettings;
}

/** The case workflow's own id: beside its agent run's, which stays exactly caseWorkflowId(...). */
export const scoringWorkflowId = (agentRunId: string): string => `${agentRunId}/score`;

/** Scorers that run in the worker (activity) rather than in this workflow. */
export const activityScorers = (input: Pick<EvaluationCaseInput, 'scorers' | 'judge'>): string[] => [
  ...new Set([...input.scorers, ...(input.judge ? ['judge'] : [])]),
];

/**
 * One case × variant × repeat: starts the agent run as a child (id `caseWorkflowId(...)`, so a
 * replayed or restarted evaluation never starts it twice), waits for its AgentResult (which lands
 * in this workflow's history, never in the evaluation's), scores it (the deterministic scorers
 * here, in workflow code; worker scorers and the judge in one `scoreRun` activity that reads the
 * result itself) and returns a CaseResult of at most 1 KB. A run that fails or is cancelled is a
 * `failed` result with a note, never a failure of this workflow. Cancelling this workflow cancels
 * the run and waits for it to wind down.
 */
export async function evaluationCaseWorkflow(input: EvaluationCaseInput): Promise<CaseResult> {
  const runId = caseWorkflowId(input.evaluationId, input.case, input.variant.id, input.repeat);
  const agentInput = caseAgentInput(input.baseInput, input.variant, input.case, input.grant);
  const base = baseResult(input, runId);
  setCurrentDetails(`Running agent run ${markdownCode(runId)}.`);
  let result: AgentResult;
  try {
    const child = await startChild('agentWorkflow', {
      workflowId: runId,
      args: [agentInput],
      cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      staticSummary: `eval ${input.evaluationName} · case ${input.case.id} · variant ${input.variant.id} · repeat ${input.repeat + 1}/${input.repeats}`,
      staticDetails: input.case.task.slice(0, 2_000),
    });
    result = (await child.result()) as AgentResult;
  } catch (err) {
    const why = isCancellation(err)
      ? 'the run was cancelled before it reported'
      : `the run failed: ${failureMessage(err)}`;
    return fitCaseResult({ ...base, note: cut(why) });
  }
  const loopTools: LoopToolNames = {
    finish: stringOr(agentInput.finishToolName, DEFAULT_FINISH_TOOL),
    giveUp: stringOr(agentInput.giveUpToolName, DEFAULT_GIVE_UP_TOOL),
  };
  const facts = factsOf(result, loopTools);
  const ran = { ...base, ...measured(facts), ...timesOf(input.case, result) };
  if (result.terminationReason === 'cancelled')
    return fitCaseResult({ ...ran, note: cut(`the run was cancelled: ${result.error ?? 'no reason given'}`) });
  setCurrentDetails(`Scoring agent run ${markdownCode(runId)} (it ended ${result.terminationReason}).`);
  const scores = [...scoreCase(input.case.expect, facts), ...(await workerScores(input, runId, loopTools))];
  const passed = scores.every((s) => s.passed);
  setCurrentDetails(`Agent run ${markdownCode(runId)} scored: ${passed ? 'passed' : 'did not pass'}.`);
  return fitCaseResult({ ...ran, status: 'scored', scores, passed });
}

/** The scores of the worker's scorers and the judge, from one activity; each scorer's own failure is a failed score. */
async function workerScores(input: EvaluationCaseInput, runId: string, loopTools: LoopToolNames): Promise<Score[]> {
  const names = activityScorers(input);
  if (names.length === 0) return [];
  const judge = input.judge?.model;
  try {
    const scored = await activities.scoreRun.executeWithOptions(
      {
        summary: `score ${runId}: ${names.join(', ')}`.slice(0, 200),
        // The judge's own call limit, with room to read the result and run the user's scorers.
        startToCloseTimeout: (judge?.timeoutMs ?? 60_000) + 60_000,
        ...(judge ? { heartbeatTimeout: judge.heartbeatTimeoutMs } : {}),
        // Retryable judge failures retry here; on the last attempt scoreRun gives a failed score instead.
        retry: { maximumAttempts: judge?.maximumAttempts ?? 3, initialInterval: '1 second', backoffCoefficient: 2 },
      },
      [
        {
          runWorkflowId: runId,
          case: input.case,
          scorers: input.scorers,
          loopTools,
          ...(input.judge ? { judge: input.judge } : {}),
        },
      ],
    );
    return scored.scores;
  } catch (err) {
    const why = isCancellation(err) ? 'scoring was cancelled' : `scoring failed: ${failureMessage(err)}`;
    return names.map((scorer) => ({ scorer, value: 0, passed: false, why: cut(why) }));
  }
}

function baseResult(input: EvaluationCaseInput, runId: string): CaseResult {
  return unscoredResult({
    caseId: input.case.id,
    variant: input.variant.id,
    repeat: input.repeat,
    workflowId: runId,
    status: 'failed',
    ...(input.case.limits?.maxIterations !== undefined ? { maxIterations: input.case.limits.maxIterations } : {}),
  });
}

function measured(facts: ScoringFacts): Partial<CaseResult> {
  return {
    terminationReason: facts.terminationReason,
    iterations: facts.iterations,
    ...(facts.maxIterations !== undefined ? { maxIterations: facts.maxIterations } : {}),
    toolCalls: facts.toolCalls.length,
    costUsd: facts.costUsd,
    tokens: facts.tokens,
    latencyMs: facts.latencyMs,
  };
}

/**
 * The run's planning and reasoning times (the tally it carried, else read from its chain), for
 * the time targets; none for a replayed case: its recorded replies are not the variant's model.
 */
function timesOf(c: EvalCase, result: AgentResult): Pick<CaseResult, 'times'> {
  if (c.replay !== undefined) return {};
  const t = result.times ?? modelTimes(result.chain.steps);
  const { planningMs, planningCalls, reasoningPerIterationMs, reasoningIterations } = t;
  return { times: { planningMs, planningCalls, reasoningPerIterationMs, reasoningIterations } };
}

const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const cut = (text: string): string =>
  text.length > MAX_SCORE_WHY_CHARS ? `${text.slice(0, MAX_SCORE_WHY_CHARS - 1)}…` : text;
