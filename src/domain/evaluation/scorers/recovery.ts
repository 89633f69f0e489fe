import type { Score } from '../case-result';
import type { CaseExpectation } from '../eval-case';
import type { ScoringFacts } from '../scoring-facts';
import { verdict } from './score';

export const RECOVERY = 'recovery';

/**
 * Error recovery (seed 001 §6): after a failed tool call, the run still ended with `success`.
 * When it is scored:
 * - `recovers: true`: always; a run where no call failed fails it too (the case's failure never
 *   happened, so recovery was not shown);
 * - `recovers: false`: never (the case opts out);
 * - not set: when a call failed and the case expects `success` (a case that expects the run to
 *   give up is not about recovering).
 * A call failed when its result says so: a tool error, an unknown tool, invalid arguments, a
 * refusal. Undefined when nothing is scored.
 */
export function recovery(expect: CaseExpectation, facts: ScoringFacts): Score | undefined {
  if (expect.recovers === false) return undefined;
  const failed = facts.toolCalls.findIndex((c) => c.success === false);
  if (failed < 0) {
    return expect.recovers === true
      ? verdict(RECOVERY, false, 'no tool call failed, so recovery was not shown')
      : undefined;
  }
  const wanted = expect.terminationReason ?? 'success';
  const expectsSuccess = Array.isArray(wanted) ? wanted.includes('success') : wanted === 'success';
  if (expect.recovers === undefined && !expectsSuccess) return undefined;
  const call = facts.toolCalls[failed]!;
  const failures = facts.toolCalls.filter((c) => c.success === false).length;
  const what = `call ${failed + 1} ${call.tool} failed${failures > 1 ? ` (${failures} failed calls)` : ''}`;
  const passed = facts.terminationReason === 'success';
  return verdict(
    RECOVERY,
    passed,
    passed ? `${what}; the run still succeeded` : `${what}; the run ended ${facts.terminationReason}`,
  );
}
