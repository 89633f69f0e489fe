import { z } from 'zod';
import { DEFAULT_SIGNATURE_MAX_AGE_MS, SignedDecisionKind } from './signed-decision';

/*
 * The signed decisions a run has accepted, so it refuses a second use of one (issue 78). Pure and
 * sandbox-safe: every transition is `(state, …) → { state, result }`, and the run passes its own
 * clock. Bounded two ways: a decision older than the signature age limit is forgotten (the
 * verifier refuses it anyway, so forgetting it reopens nothing), and at most MAX_USED_DECISIONS
 * younger ones are kept; past that a new signed decision is refused, never an old one forgotten
 * early (which would let it be replayed). Steering has a budget of its own within that bound
 * (MAX_USED_STEERS): it answers no pause, so anyone allowed to steer may sign as many as they
 * like, and without it they could fill the record and block the approvals, answers and raises
 * the run waits on for up to the age limit.
 */

/** Signed decisions one run remembers at once (within the age limit); about 85 bytes each when carried. */
export const MAX_USED_DECISIONS = 256;
/**
 * Of them, at most this many steering instructions: steers take at most half the record, so the
 * other half is always there for approvals, answers and raises (each of which answers a pause or
 * a call the run opened, so they cannot be signed at will).
 */
export const MAX_USED_STEERS = MAX_USED_DECISIONS / 2;

/**
 * One accepted decision: its id (signed-decision.ts decisionId), when it was signed, and its kind.
 * `kind` is absent in records carried from before the steering budget; such an entry counts as a
 * steer, where the most it can block is steering, and only until it ages out.
 */
export const UsedDecision = z.object({
  id: z.string().min(1).max(64),
  issuedMs: z.number().int(),
  kind: SignedDecisionKind.optional(),
});
export type UsedDecision = z.infer<typeof UsedDecision>;
/** A decision being accepted now: its kind is always known. */
export type NewDecision = UsedDecision & { kind: SignedDecisionKind };

const countsAsSteer = (d: UsedDecision): boolean => (d.kind ?? 'steer') === 'steer';

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

/** Why `decision` may not be accepted now (used already, the record or its steering budget full), or undefined. */
export function reuseProblem(
  used: UsedDecisions,
  decision: NewDecision,
  nowMs: number,
  maxAgeMs: number = DEFAULT_SIGNATURE_MAX_AGE_MS,
): string | undefined {
  const live = forgetExpired(used, nowMs, maxAgeMs);
  if (live.some((d) => d.id === decision.id))
    return `this signed decision (${decision.id}) was already used in this run; each is accepted once, decide again`;
  const minutes = Math.round(maxAgeMs / 60_000);
  if (live.length >= MAX_USED_DECISIONS)
    return `this run accepted ${MAX_USED_DECISIONS} signed decisions in the last ${minutes} minutes, as many as it remembers; decide again in a few minutes`;
  if (countsAsSteer(decision) && live.filter(countsAsSteer).length >= MAX_USED_STEERS)
    return `this run accepted ${MAX_USED_STEERS} signed instructions in the last ${minutes} minutes, as many as it remembers for steering (the rest is kept for approvals, answers and raises); steer again in a few minutes`;
  return undefined;
}

/** The record after accepting `decision`: expired entries dropped, the decision added (once). */
export function useDecision(
  used: UsedDecisions,
  decision: NewDecision,
  nowMs: number,
  maxAgeMs: number = DEFAULT_SIGNATURE_MAX_AGE_MS,
): { state: UsedDecisions; accepted: boolean } {
  const live = forgetExpired(used, nowMs, maxAgeMs);
  if (reuseProblem(live, decision, nowMs, maxAgeMs) !== undefined) return { state: live, accepted: false };
  return { state: [...live, { id: decision.id, issuedMs: decision.issuedMs, kind: decision.kind }], accepted: true };
}
