import type { ScriptedTurn } from '../../../src/activities/models/scripted-model';
import type { ToolResult } from '../../../src/domain';
import type { SeededRandom } from './seeded-random';

/** What one tool call of a fuzzed turn must become in the chain. */
export type CallOutcome = 'ok' | 'unknown_tool' | 'invalid_args' | 'invalid_finish' | 'tool_failed' | 'not_run';

/** What the run must make of one scripted turn. */
export type TurnExpectation =
  /** A turn the run goes on from: each call's outcome (the chain records a pair per call). */
  | { kind: 'calls'; calls: CallOutcome[] }
  /** Text ReAct the parser cannot act on: a format-error thought starting with `message`. */
  | { kind: 'format_error'; message: string }
  /** The unreadable reply after the warning: the run stops as stalled (a summary call follows). */
  | { kind: 'stalled' }
  /** The last turn: how the run ends, a marker its answer holds (or the whole answer), and its calls. */
  | { kind: 'end'; reason: 'success' | 'failure' | 'stalled'; answer: string; exact: boolean; calls: CallOutcome[] };

export interface FuzzTurn {
  /** Short description, printed with every problem. */
  label: string;
  turn: ScriptedTurn;
  expect: TurnExpectation;
}

/** What a turn generator draws from: the run's PRNG, fresh ids, and how many huge texts are left. */
export interface FuzzContext {
  r: SeededRandom;
  /** Unique within the run: call ids and nonces, so no two calls repeat each other. */
  id(prefix: string): string;
  /** Huge texts and arguments are rationed per run, to keep histories and results bounded. */
  takeHuge(probability: number): boolean;
}

export function fuzzContext(r: SeededRandom, hugeBudget: number): FuzzContext {
  let ids = 0;
  let huge = hugeBudget;
  return {
    r,
    id: (prefix) => `${prefix}${++ids}`,
    takeHuge: (probability) => huge > 0 && r.chance(probability) && huge-- > 0,
  };
}

// The observation texts of validate-tool-call, decide-next-step and tool-runner, by outcome.
const ERRORS: Array<[Exclude<CallOutcome, 'ok'>, RegExp]> = [
  ['unknown_tool', /^Error: unknown tool "/],
  ['invalid_args', /^Error: invalid arguments for tool "/],
  ['invalid_finish', /^"finish" needs a non-empty string "result"\.$/],
  ['tool_failed', /^Tool "always_fails" failed with arguments /],
  ['not_run', /^Not run: /],
];

/** A tool result as the outcome it shows; an error of no known kind is returned whole, to be printed. */
export function outcomeOf(result: ToolResult): string {
  if (result.success) return 'ok';
  return (
    ERRORS.find(([, pattern]) => pattern.test(result.error ?? ''))?.[0] ??
    `unexpected error: ${JSON.stringify(result.error)?.slice(0, 200)}`
  );
}
