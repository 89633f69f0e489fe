import { z } from 'zod';
import { DEFAULT_SIGNATURE_MAX_AGE_MS } from './signed-decision';

/*
 * The signed decisions a run has accepted, so it refuses a second use of one (issue 78). Pure and
 * sandbox-safe: every transition is `(state, …) → { state, result }`, and the run passes its own
 * clock. Bounded two ways: a decision older than the signature age limit is forgotten (the
 * verifier refuses it anyway, so forgetting it reopens nothing), and at most MAX_USED_DECISIONS
 * younger ones are kept; past that a new signed decision is refused, never an old one forgotten
 * early (which would let it be replayed).
 */

/** Signed decisions one run remembers at once (within the age limit); about 70 bytes each when carried. */
export const MAX_USED_DECISIONS = 256;

/** One accepted decision: its id (signed-decision.ts decisionId) and when it was signed. */
export const UsedDecision = z.object({
  id: z.string().min(1).max(64),
  issuedMs: z.number().int(),
});
export type UsedDecision = z.infer<typeof UsedDecision>;

/** The record carried through continue-as-new (ContinuedState.usedDecisions); at most the cap, one per id. */
export const UsedDecisions = z.array(UsedDecision).max(MAX_USED_DECISIONS);
export type UsedDecisions = z.infer<typeof UsedDecisions>;

/** The record without what the verifier refuses anyway (signed more than `maxAgeMs` before `nowMs`). */
export function forgetExpired(
  used: UsedDecisions,
  nowMs: number,
  maxAgeMs: number = DEFAULT_SIGNATURE_MAX_AGE_MS,
): UsedDecisions {
  return used.filter((d) => d.issuedMs >= nowMs - maxAgeMs);
}

/** Why `decision` may not be accepted now (used already, or the record is full), or undefined. */
export function reuseProblem(
  used: UsedDecisions,
  decision: UsedDecision,
  nowMs: number,
  maxAgeMs: number = DEFAULT_SIGNATURE_MAX_AGE_MS,
): string | undefined {
  const live = forgetExpired(used, nowMs, maxAgeMs);
  if (live.some((d) => d.id === decision.id))
    return `this signed decision (${decision.id}) was already used in this run; each is accepted once, decide again`;
  if (live.length >= MAX_USED_DECISIONS)
    return `this run accepted ${MAX_USED_DECISIONS} signed decisions in the last ${Math.round(maxAgeMs / 60_000)} minutes, as many as it remembers; decide again in a few minutes`;
  return undefined;
}

/** The record after accepting `decision`: expired entries dropped, the decision added (once). */
export function useDecision(
  used: UsedDecisions,
  decision: UsedDecision,
  nowMs: number,
  maxAgeMs: number = DEFAULT_SIGNATURE_MAX_AGE_MS,
): { state: UsedDecisions; accepted: boolean } {
  const live = forgetExpired(used, nowMs, maxAgeMs);
  if (reuseProblem(live, decision, nowMs, maxAgeMs) !== undefined) return { state: live, accepted: false };
  return { state: [...live, { id: decision.id, issuedMs: decision.issuedMs }], accepted: true };
}
