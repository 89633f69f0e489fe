import type { Score } from '../case-result';
import type { ExpectedToolCall, TrajectoryExpectation } from '../eval-case';
import type { FactToolCall, ScoringFacts } from '../scoring-facts';
import { callMatches, callProblem } from './argument-predicate';
import { score } from './score';

export const TRAJECTORY = 'trajectory';

type Call = Pick<FactToolCall, 'tool' | 'arguments'>;

/**
 * The tool calls made against the expected ones, in the expectation's mode (eval-case.ts). The
 * value is the share matched: of positions (`exact`, over the longer list), of expected calls
 * (`in_order`, `any_order`), of calls made (`subset`); an empty list on both sides is a match.
 * `why` names the first call or argument predicate that failed, calls numbered from 1.
 */
export function trajectory(expected: TrajectoryExpectation, facts: ScoringFacts): Score {
  const made = facts.toolCalls;
  const judged = JUDGES[expected.mode](expected.calls, made);
  const tail = facts.chainComplete ? '' : ' (the chain holds only the run\u2019s last steps)';
  const why =
    judged.problem === undefined
      ? `${expected.mode}: ${okText(expected.calls.length, made.length)}`
      : `${expected.mode}: ${judged.problem}${tail}`;
  return score(TRAJECTORY, judged.value, judged.problem === undefined, why);
}

interface Judged {
  value: number;
  /** The first failure, undefined when the mode is satisfied. */
  problem?: string;
}

const okText = (expected: number, made: number) =>
  `${made} call${made === 1 ? '' : 's'} made, ${expected} expected, all as expected`;

const JUDGES: Readonly<
  Record<TrajectoryExpectation['mode'], (expected: readonly ExpectedToolCall[], made: readonly Call[]) => Judged>
> = {
  exact,
  in_order: inOrder,
  any_order: anyOrder,
  subset,
};

/** The same calls in the same order, nothing more. */
function exact(expected: readonly ExpectedToolCall[], made: readonly Call[]): Judged {
  const length = Math.max(expected.length, made.length);
  if (length === 0) return { value: 1 };
  let matched = 0;
  let problem: string | undefined;
  for (let i = 0; i < length; i++) {
    const want = expected[i];
    const call = made[i];
    const wrong =
      want === undefined
        ? `call ${i + 1} ${call!.tool} was not expected (${expected.length} expected)`
        : call === undefined
          ? `expected call ${i + 1} ${want.tool}, but only ${made.length} call${made.length === 1 ? ' was' : 's were'} made`
          : prefixed(`call ${i + 1}`, callProblem(want, call));
    if (wrong === undefined) matched += 1;
    else problem ??= wrong;
  }
  return { value: matched / length, ...(problem !== undefined ? { problem } : {}) };
}

/** The expected calls as a subsequence of the calls made (others may come between). */
function inOrder(expected: readonly ExpectedToolCall[], made: readonly Call[]): Judged {
  if (expected.length === 0) return { value: 1 };
  let at = 0;
  let matched = 0;
  let problem: string | undefined;
  for (const [j, want] of expected.entries()) {
    let found = -1;
    for (let i = at; i < made.length; i++) {
      if (callMatches(want, made[i]!)) {
        found = i;
        break;
      }
    }
    if (found < 0) {
      problem ??= `expected call ${j + 1} ${want.tool} not found${at > 0 ? ` after call ${at}` : ''}${nearest(want, made, at)}`;
      continue;
    }
    matched += 1;
    at = found + 1;
  }
  return { value: matched / expected.length, ...(problem !== undefined ? { problem } : {}) };
}

/** Every expected call matched by a call of its own, in any order (a maximum matching, so predicates that overlap are fair). */
function anyOrder(expected: readonly ExpectedToolCall[], made: readonly Call[]): Judged {
  if (expected.length === 0) return { value: 1 };
  const ownerOf: number[] = made.map(() => -1);
  const fits = expected.map((want) => made.map((call) => callMatches(want, call)));
  const assign = (j: number, seen: boolean[]): boolean => {
    for (let i = 0; i < made.length; i++) {
      if (!fits[j]![i] || seen[i]) continue;
      seen[i] = true;
      if (ownerOf[i] === -1 || assign(ownerOf[i]!, seen)) {
        ownerOf[i] = j;
        return true;
      }
    }
    return false;
  };
  const unmatched: number[] = [];
  for (let j = 0; j < expected.length; j++)
    if (
      !assign(
        j,
        made.map(() => false),
      )
    )
      unmatched.push(j);
  const matched = expected.length - unmatched.length;
  if (unmatched.length === 0) return { value: 1 };
  const first = unmatched[0]!;
  const want = expected[first]!;
  const sameTool = fits[first]!.some(Boolean)
    ? ' (its matching calls serve other expected calls)'
    : nearest(want, made, 0);
  return {
    value: matched / expected.length,
    problem: `expected call ${first + 1} ${want.tool} not made${sameTool}; ${unmatched.length} of ${expected.length} unmatched`,
  };
}

/** Every call made is one of the expected ones (repeats allowed); nothing outside the list. */
function subset(expected: readonly ExpectedToolCall[], made: readonly Call[]): Judged {
  if (made.length === 0) return { value: 1 };
  let allowed = 0;
  let problem: string | undefined;
  for (const [i, call] of made.entries()) {
    if (expected.some((want) => callMatches(want, call))) {
      allowed += 1;
      continue;
    }
    const sameTool = expected.find((want) => want.tool === call.tool);
    problem ??= `call ${i + 1} ${call.tool} ${
      sameTool ? `fails its expected arguments: ${callProblem(sameTool, call)}` : 'is not among the expected tools'
    }`;
  }
  return { value: allowed / made.length, ...(problem !== undefined ? { problem } : {}) };
}

const prefixed = (where: string, problem: string | undefined) =>
  problem === undefined ? undefined : `${where}: ${problem}`;

/** What the closest call of the same tool got wrong, or that none was made (from `from` on). */
function nearest(want: ExpectedToolCall, made: readonly Call[], from: number): string {
  const index = made.findIndex((call, i) => i >= from && call.tool === want.tool);
  if (index < 0)
    return made.some((call) => call.tool === want.tool)
      ? ` (its ${want.tool} calls came earlier)`
      : ` (no ${want.tool} call was made)`;
  return ` (call ${index + 1}: ${callProblem(want, made[index]!)})`;
}
