import { temporal } from '@temporalio/proto';
import type { AgentResult, ModelRequest, ReasoningStep } from '../../../src/domain';
import type { FuzzPlan } from './fuzz-plan';
import { outcomeOf, type TurnExpectation } from './fuzz-turn';

const EventType = temporal.api.enums.v1.EventType;

export interface FuzzRun {
  plan: FuzzPlan;
  result: AgentResult;
  events: temporal.api.history.v1.IHistoryEvent[];
  /** What the scripted model received, in order. */
  requests: readonly ModelRequest[];
  /** What the scripted model's verify() threw (turns left over, or called past its script). */
  scriptProblem?: string;
}

const sorted = (items: readonly string[]): string => JSON.stringify([...items].sort());
const isModelCall = (s: ReasoningStep): boolean => s.type === 'tool_call' && s.toolCall.toolType === 'llm';

/** The chain cut per model call: the steps after each call's own pair, up to the next call. */
function segments(steps: readonly ReasoningStep[]): ReasoningStep[][] {
  const starts = steps.flatMap((s, i) => (isModelCall(s) ? [i] : []));
  return starts.map((start, k) => steps.slice(start + 2, starts[k + 1] ?? steps.length));
}

/** What the next request tells the model about this turn: its observations as error flags, or text. */
function observationSent(request: ModelRequest | undefined): { errors: boolean[]; text: string } | undefined {
  const last = request?.messages.at(-1);
  if (!last || last.role !== 'user') return undefined;
  const results = last.content.flatMap((b) => (b.type === 'tool_result' ? [b.isError] : []));
  const text = last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  return { errors: results, text };
}

function turnProblems(
  expect: TurnExpectation,
  segment: ReasoningStep[],
  next: ModelRequest | undefined,
  strategy: FuzzPlan['strategy'],
): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => void (ok || problems.push(what));
  const outcomes = segment.flatMap((s) => (s.type === 'tool_result' ? [outcomeOf(s.toolResult)] : []));
  const calls = segment.filter((s) => s.type === 'tool_call').length;
  const thoughts = segment.flatMap((s) => (s.type === 'thinking' ? [s.thought] : []));
  const unread = thoughts.filter((t) => t.startsWith('Reply not understood: '));
  switch (expect.kind) {
    case 'calls':
    case 'end':
      check(calls === expect.calls.length, `${calls} tool_call steps, expected ${expect.calls.length}`);
      check(
        sorted(outcomes) === sorted(expect.calls),
        `outcomes ${sorted(outcomes)}, expected ${sorted(expect.calls)}`,
      );
      check(unread.length === 0, 'a format-error thought for a readable reply');
      break;
    case 'format_error':
      check(
        unread.length === 1 && unread[0]!.startsWith(`Reply not understood: ${expect.message}`),
        `format-error thoughts ${JSON.stringify(unread.map((t) => t.slice(0, 160)))}, expected one starting with ${JSON.stringify(expect.message)}`,
      );
      check(calls === 0 && outcomes.length === 0, `${calls} tool calls recorded for an unreadable reply`);
      break;
    case 'stalled':
      check(
        thoughts.some((t) => t.startsWith('Stalled: ')),
        'no "Stalled:" thought',
      );
      check(calls === 0 && unread.length === 0, 'the stalled reply was acted on');
      break;
  }
  // The model hears of every problem on its next call: an error tool_result per call, or an Observation.
  if (expect.kind === 'calls' || expect.kind === 'format_error') {
    const sent = observationSent(next);
    if (!sent) return [...problems, 'the next request does not end with a user message'];
    if (strategy === 'native') {
      const wanted = expect.kind === 'calls' ? expect.calls.map((c) => c !== 'ok') : [];
      check(
        sorted(sent.errors.map(String)) === sorted(wanted.map(String)),
        `observations sent as is_error ${sorted(sent.errors.map(String))}, expected ${sorted(wanted.map(String))}`,
      );
    } else {
      check(
        sent.text.startsWith('Observation: '),
        `next request's text ${JSON.stringify(sent.text.slice(0, 80))} is no Observation`,
      );
      if (expect.kind === 'format_error')
        check(sent.text.includes(expect.message), 'the Observation does not carry the format error');
    }
  }
  return problems;
}

/**
 * Everything a fuzzed run must show, as problems (empty when right): no failed workflow task,
 * the script used exactly, the ending, and per turn the chain's record of each call or format
 * error and the observation the model got next.
 */
export function fuzzProblems({ plan, result, events, requests, scriptProblem }: FuzzRun): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => void (ok || problems.push(what));
  const end = plan.turns.at(-1)!.expect;
  if (end.kind !== 'end') throw new Error('a fuzz plan ends with an end turn');

  check(!events.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED), 'a workflow task failed');
  check(
    result.continuations === 0,
    `continued as new ${result.continuations} times: earlier histories were not checked`,
  );
  check(scriptProblem === undefined, `script: ${scriptProblem}`);
  check(
    result.terminationReason === end.reason,
    `ended ${result.terminationReason} (${result.error ?? ''}), expected ${end.reason}`,
  );
  check(
    end.exact ? result.finalAnswer === end.answer : result.finalAnswer.includes(end.answer),
    `answer ${JSON.stringify(result.finalAnswer.slice(0, 120))}, expected ${end.exact ? '' : 'to contain '}${JSON.stringify(end.answer.slice(0, 120))}`,
  );
  const unreadable = plan.turns.filter((t) => t.expect.kind === 'format_error' || t.expect.kind === 'stalled').length;
  check(result.formatErrors === unreadable, `formatErrors ${result.formatErrors}, expected ${unreadable}`);
  if (end.reason === 'stalled')
    check(requests.at(-1)?.toolChoice === 'none', 'the summary after the stall was asked with tools allowed');

  const bySegment = segments(result.chain.steps);
  check(
    bySegment.length === plan.turns.length,
    `${bySegment.length} model calls in the chain, ${plan.turns.length} turns scripted`,
  );
  plan.turns.forEach((turn, i) => {
    for (const p of turnProblems(turn.expect, bySegment[i] ?? [], requests[i + 1], plan.strategy))
      problems.push(`turn ${i + 1} (${turn.label}): ${p}`);
  });
  const synthesis = result.chain.steps.at(-1);
  // A give-up's synthesis says so around the reason: "The task could not be completed: <reason>".
  check(
    synthesis?.type === 'synthesis' && synthesis.synthesis.conclusion.includes(result.finalAnswer),
    'the chain does not end with a synthesis of the answer',
  );
  return problems;
}
