import { temporal } from '@temporalio/proto';
import type { AgentResult } from '../../../src/domain';
import type { RecordedRequest } from '../../../src/testing';
import { TIMED_OUT } from './fault-catalogue';
import type { StormPlan } from './fault-storm-plan';

const EventType = temporal.api.enums.v1.EventType;
const RetryState = temporal.api.enums.v1.RetryState;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Failure = temporal.api.failure.v1.IFailure | null | undefined;

export interface StormRun {
  plan: StormPlan;
  result: AgentResult;
  events: HistoryEvent[];
  requests: readonly RecordedRequest[];
  /** What the fake server's verify() threw, if anything (entries unused, harness errors). */
  serverProblem?: string;
}

/** An attempt's failure as a fault type: the ApplicationFailure type, or a start-to-close timeout. */
function typeOf(failure: Failure): string | undefined {
  if (!failure) return undefined;
  if (failure.timeoutFailureInfo) return TIMED_OUT;
  return failure.applicationFailureInfo?.type ?? typeOf(failure.cause);
}

/** One callModel activity as its history tells it: attempts made, the last retried failure, how it ended. */
function modelCalls(events: HistoryEvent[]) {
  const byScheduled = (id: { toString(): string } | null | undefined) => (e: HistoryEvent) => {
    const a =
      e.activityTaskStartedEventAttributes ??
      e.activityTaskCompletedEventAttributes ??
      e.activityTaskFailedEventAttributes ??
      e.activityTaskTimedOutEventAttributes;
    return a?.scheduledEventId?.toString() === id?.toString();
  };
  return events
    .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel')
    .map((scheduled) => {
      const related = events.filter(byScheduled(scheduled.eventId));
      const started = related.find(
        (e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
      )?.activityTaskStartedEventAttributes;
      const failed = related.find(
        (e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED,
      )?.activityTaskFailedEventAttributes;
      const timedOut = related.find(
        (e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT,
      )?.activityTaskTimedOutEventAttributes;
      const end = failed ?? timedOut;
      return {
        attempts: started?.attempt ?? 0,
        lastRetried: typeOf(started?.lastFailure),
        completed: related.some((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED),
        finalFailure: end ? { type: typeOf(end.failure), retryState: end.retryState } : undefined,
      };
    });
}

/**
 * Everything a storm run must show, as a list of problems (empty when the run is right):
 * the ending and its reason, the fake server's requests, the history's attempts and retry
 * states, and the chain's model-call steps.
 */
export function stormProblems({ plan, result, events, requests, serverProblem }: StormRun): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => void (ok || problems.push(what));
  const { expected } = plan;

  check(!events.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED), 'a workflow task failed');
  check(serverProblem === undefined, `fake server: ${serverProblem}`);
  check(
    requests.length === plan.script.length,
    `the fake server got ${requests.length} requests; the storm scripted ${plan.script.length}`,
  );

  if (expected.reason === 'success') {
    check(
      result.terminationReason === 'success' && result.success,
      `ended ${result.terminationReason} (${result.error ?? ''}), not success`,
    );
    check(result.finalAnswer === expected.answer, `answer ${JSON.stringify(result.finalAnswer)}`);
  } else {
    const { failure } = expected;
    check(
      result.terminationReason === 'error' && !result.success && result.chain.status === 'failed',
      `ended ${result.terminationReason}/${result.chain.status}, not error/failed`,
    );
    const prefix =
      failure.type === TIMED_OUT
        ? 'Model call failed: activity StartToClose timeout'
        : `Model call failed: ${failure.type}: `;
    check(
      result.error?.startsWith(prefix) === true,
      `error ${JSON.stringify(result.error)} does not start with ${JSON.stringify(prefix)}`,
    );
    if (failure.message)
      check(
        result.error?.includes(failure.message) === true,
        `error ${JSON.stringify(result.error)} lacks the API's message`,
      );
  }

  // History: one callModel activity per planned call; its attempts and retries as the storm made them.
  const calls = modelCalls(events);
  check(
    calls.length === plan.calls.length,
    `${calls.length} callModel activities in history; planned ${plan.calls.length}`,
  );
  plan.calls.forEach((call, i) => {
    const seen = calls[i];
    if (!seen) return;
    const attempts = call.ending === 'reply' ? call.faults.length + 1 : call.faults.length;
    check(seen.attempts === attempts, `call ${i + 1}: ${seen.attempts} attempts in history, expected ${attempts}`);
    const retried = call.ending === 'reply' ? call.faults.at(-1) : call.faults.at(-2);
    check(
      seen.lastRetried === retried?.type,
      `call ${i + 1}: last retried failure ${seen.lastRetried}, expected ${retried?.type}`,
    );
    if (call.ending === 'reply') return check(seen.completed, `call ${i + 1}: not completed`);
    const last = call.faults.at(-1)!;
    const retryState =
      call.ending === 'fatal'
        ? RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE
        : RetryState.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED;
    check(
      seen.finalFailure?.type === last.type,
      `call ${i + 1}: ended on ${seen.finalFailure?.type}, expected ${last.type}`,
    );
    check(
      seen.finalFailure?.retryState === retryState,
      `call ${i + 1}: retry state ${seen.finalFailure?.retryState}, expected ${retryState}`,
    );
  });

  // Chain: a pair of llm steps per call; the one that failed for good says why, as the result does.
  const llmResults = result.chain.steps.flatMap((s) =>
    s.type === 'tool_result' && s.model !== undefined ? [s.toolResult] : [],
  );
  check(
    llmResults.length === plan.calls.length,
    `${llmResults.length} model results in the chain; planned ${plan.calls.length} calls`,
  );
  llmResults.forEach((r, i) => {
    const failed = expected.reason === 'error' && i === plan.calls.length - 1;
    check(r.success === !failed, `chain: model call ${i + 1} success ${r.success}`);
    if (failed)
      check(
        r.error === result.error,
        `chain: model call ${i + 1} error ${JSON.stringify(r.error)} differs from the run's`,
      );
  });
  return problems;
}
