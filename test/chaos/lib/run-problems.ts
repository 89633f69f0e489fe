import { isDeepStrictEqual } from 'node:util';
import type { AgentResult } from '../../../src/domain';
import type { RecordedRequest } from '../../../src/testing';
import { comparableChain } from './comparable-chain';
import type { ActivityAttempts } from './activity-attempts';
import type { ModelRequestLog } from './chaos-model';
import type { RunPlan } from './chaos-plan';
import { CHAOS_TOOL_NAMES } from './chaos-tools-module';
import { conversationProblems } from './conversation-problems';
import type { FakeExternalService } from './fake-external-service';
import type { ReferenceRun } from './reference-runs';
import { unexplainedRepeats } from './unexplained-repeats';

export interface ObservedRun {
  plan: RunPlan;
  workflowId: string;
  result: AgentResult;
  activities: ActivityAttempts[];
}

/** What the fakes saw while the runs went on, and when the chaos struck. */
export interface RunEvidence {
  model: { readonly requests: readonly ModelRequestLog[] };
  /** The fake Messages server's records, to say how a repeated model call's first ask ended. */
  modelRecords: readonly RecordedRequest[];
  service: FakeExternalService;
  /** Moments a repeat may straddle: worker kills, a server starting again. */
  interruptions: readonly { at: number }[];
  /** performance.now() at the start, so problems can give times from it. */
  origin: number;
}

/**
 * Everything one disturbed run must satisfy, as a list of problems (empty when it passed): it
 * completed, like its undisturbed reference, step for step; each tool call's side effect was
 * applied exactly once, under the key the chain gives it; no model turn or tool call was asked
 * twice unless an interruption came between the two asks; and every ask of a model call received
 * the reference's conversation.
 */
export function runProblems(
  run: ObservedRun,
  { result: reference, modelRequests: referenceRequests }: ReferenceRun,
  evidence: RunEvidence,
): string[] {
  const { plan, workflowId, result } = run;
  const problems: string[] = [];
  const say = (what: string) => problems.push(`${plan.label}: ${what}`);
  const when = (at: number) => `+${((at - evidence.origin) / 1000).toFixed(1)} s`;

  if (result.terminationReason !== 'success' || result.finalAnswer !== plan.finalAnswer)
    say(`ended ${result.terminationReason}: ${result.finalAnswer}${result.error ? ` (${result.error})` : ''}`);
  const outline = (r: AgentResult) => ({
    reason: r.terminationReason,
    status: r.chain.status,
    answer: r.finalAnswer,
    iterations: r.iterations,
    modelCalls: r.modelCalls,
    toolCalls: r.toolCalls,
    usage: r.usage,
    costUsd: r.costUsd,
  });
  if (!isDeepStrictEqual(outline(result), outline(reference)))
    say(`result ${JSON.stringify(outline(result))} differs from the undisturbed ${JSON.stringify(outline(reference))}`);
  const chain = comparableChain(result.chain);
  const expected = comparableChain(reference.chain);
  if (!isDeepStrictEqual(chain, expected))
    say(`chain differs from the undisturbed run:\n${JSON.stringify(chain)}\nexpected:\n${JSON.stringify(expected)}`);

  // Side effects: exactly the chain's tool calls, once each, with the chain's arguments.
  const calls = result.chain.steps.flatMap((s) =>
    s.type === 'tool_call' && CHAOS_TOOL_NAMES.includes(s.toolCall.toolName) ? [s] : [],
  );
  const keys = new Set(calls.map((s) => `${workflowId}:${s.stepId}`));
  const applied = [...evidence.service.applied.values()].filter((e) => e.key.startsWith(`${workflowId}:`));
  if (applied.length !== keys.size || applied.some((e) => !keys.has(e.key))) {
    say(
      `applied effects ${JSON.stringify(applied.map((e) => e.key))} are not the chain's calls ${JSON.stringify([...keys])}`,
    );
  }
  for (const step of calls) {
    const effect = evidence.service.applied.get(`${workflowId}:${step.stepId}`);
    if (effect && !isDeepStrictEqual(effect.args, step.toolCall.arguments))
      say(
        `effect ${effect.key} applied ${JSON.stringify(effect.args)}, the chain says ${JSON.stringify(step.toolCall.arguments)}`,
      );
  }
  const attempts = evidence.service.attempts.filter((a) => a.key.startsWith(`${workflowId}:`));
  const toolActivities = run.activities.filter((a) => a.type === 'runTool');
  for (const r of unexplainedRepeats(attempts, (a) => a.key, evidence.interruptions)) {
    const activity = toolActivities.find((a) => (a.input as { idempotencyKey?: string }).idempotencyKey === r.key);
    say(
      `tool call ${r.key} was asked again with no interruption in between: ${when(r.first.at)} and ${when(r.again.at)}; ${describeAttempts(activity)}`,
    );
  }
  for (const a of toolActivities) {
    const key = (a.input as { idempotencyKey?: string }).idempotencyKey ?? '?';
    const asked = attempts.filter((t) => t.key === key).length;
    if (asked > a.attempts)
      say(`tool call ${key} reached the service ${asked} times in ${a.attempts} Temporal attempts`);
  }

  // Model calls: every planned turn asked, each recorded once, repeats only across interruptions.
  const requests = evidence.model.requests.filter((r) => r.run === plan.label);
  const modelActivities = run.activities.filter((a) => a.type === 'callModel');
  if (modelActivities.length !== plan.turns.length)
    say(`${modelActivities.length} callModel activities for ${plan.turns.length} turns`);
  for (const [turn, activity] of modelActivities.entries()) {
    const asked = requests.filter((r) => r.turn === turn).length;
    if (asked === 0 || asked > activity.attempts)
      say(`model turn ${turn} was asked ${asked} times in ${activity.attempts} Temporal attempts`);
  }
  for (const r of unexplainedRepeats(requests, (q) => String(q.turn), evidence.interruptions)) {
    const record = evidence.modelRecords.find((m) => m.body === r.first.body);
    const ended = record
      ? `status ${record.status ?? 'none'}, ${record.eventsSent ?? 0} events, ${record.clientAborted ? 'client went away' : 'answered'}`
      : 'no record';
    say(
      `model turn ${r.key} was asked again with no interruption in between: ${when(r.first.at)} (${ended}) and ${when(r.again.at)}; ${describeAttempts(modelActivities[r.first.turn])}`,
    );
  }
  for (const p of conversationProblems(requests, referenceRequests)) say(p);
  return problems;
}

const describeAttempts = (activity: ActivityAttempts | undefined): string =>
  activity
    ? `${activity.attempts} Temporal attempts${activity.lastFailure ? `, the one before the last failed: ${activity.lastFailure}` : ''}`
    : 'no activity in history';
