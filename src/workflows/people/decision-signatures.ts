import type { AgentInput } from '../../domain';
import {
  verifyDecisionSignature,
  type SignedDecisionKind,
  type VerifyDecisionResult,
} from '../../domain/approval/signed-decision';

/**
 * The run's signed-decision policy: off when the input lists no public keys (every decision is
 * accepted as before). Checks against the workflow's own clock (`Date.now()` in workflow code is
 * the activation's time, the same on replay), so a signal handler may call it too. Never throws.
 * What a steer check accepts is replayed: a change to the verifier's rules is a change to what a
 * run records (re-record the fixtures, ship as a new deployment version).
 */
export class DecisionSignatures {
  constructor(
    private readonly policy: AgentInput['signedDecisions'],
    private readonly workflowId: string,
    private readonly nowMs: () => number = Date.now,
  ) {}

  get required(): boolean {
    return this.policy !== undefined;
  }

  check(kind: SignedDecisionKind, raw: unknown): VerifyDecisionResult {
    if (!this.policy) return { ok: true };
    return verifyDecisionSignature(kind, this.workflowId, raw, this.policy, this.nowMs());
  }

  /** For update validators: throws (refusing the update, so nothing reaches history) unless the signature verifies. */
  require(kind: SignedDecisionKind, raw: unknown): void {
    const result = this.check(kind, raw);
    if (!result.ok) throw new Error(`Refused an unsigned or forged ${kind}: ${result.reason}.`);
  }
}
