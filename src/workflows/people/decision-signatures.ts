import type { AgentInput } from '../../domain';
import {
  verifyDecisionSignature,
  type SignedDecisionKind,
  type VerifyDecisionResult,
} from '../../domain/approval/signed-decision';
import { reuseProblem, useDecision, type UsedDecisions } from '../../domain/approval/used-decisions';

/** What a run makes of one decision's signature. */
export interface DecisionVerdict {
  /** A trusted key's signature verified: the roles it covers count toward the run's rules. */
  rolesVerified: boolean;
  /** Why the decision is refused (unsigned where signatures are required, forged, or used before); undefined: accepted. */
  problem?: string;
}

/**
 * The run's signed-decision policy and the signed decisions it accepted. Without public keys in
 * the input every decision is accepted unsigned and no roles are verified; with them, a decision
 * whose signature verifies has verified roles and is accepted once (used-decisions.ts), and an
 * unsigned one is refused unless the policy says `required: false`. Checks against the
 * workflow's own clock (`Date.now()` in workflow code is the activation's time, the same on
 * replay), so a signal handler may call it too. Never throws except in `require`, for validators.
 * What it accepts is replayed: a change to these rules is a change to what a run records
 * (re-record the fixtures, ship as a new deployment version).
 */
export class DecisionSignatures {
  private accepted: UsedDecisions;

  constructor(
    private readonly policy: AgentInput['signedDecisions'],
    private readonly workflowId: string,
    carried: UsedDecisions = [],
    private readonly nowMs: () => number = Date.now,
  ) {
    this.accepted = [...carried];
  }

  /** Unsigned decisions are refused. */
  get required(): boolean {
    return this.policy !== undefined && this.policy.required !== false;
  }

  /** The signed decisions accepted and still within the age limit, for continue-as-new. */
  get used(): UsedDecisions {
    return this.accepted;
  }

  /** The verdict on `raw`, recording nothing (validators). */
  check(kind: SignedDecisionKind, raw: unknown): DecisionVerdict {
    return this.judge(kind, raw).verdict;
  }

  /** For update validators: throws (refusing the update, so nothing reaches history) when `check` finds a problem. */
  require(kind: SignedDecisionKind, raw: unknown): DecisionVerdict {
    const verdict = this.check(kind, raw);
    if (verdict.problem !== undefined)
      throw new Error(`Refused an unsigned, forged or replayed ${kind}: ${verdict.problem}.`);
    return verdict;
  }

  /** The verdict on `raw`, recording an accepted signed decision as used (handlers: call once per message). */
  accept(kind: SignedDecisionKind, raw: unknown): DecisionVerdict {
    const { verdict, verified } = this.judge(kind, raw);
    if (verdict.problem === undefined && verified?.ok)
      this.accepted = useDecision(
        this.accepted,
        { id: verified.decisionId, issuedMs: verified.issuedMs, kind },
        this.nowMs(),
      ).state;
    return verdict;
  }

  private judge(kind: SignedDecisionKind, raw: unknown): { verdict: DecisionVerdict; verified?: VerifyDecisionResult } {
    const verified = this.verify(kind, raw);
    if (verified?.ok) {
      const problem = reuseProblem(
        this.accepted,
        { id: verified.decisionId, issuedMs: verified.issuedMs, kind },
        this.nowMs(),
      );
      return { verdict: problem === undefined ? { rolesVerified: true } : { rolesVerified: true, problem }, verified };
    }
    if (this.required) return { verdict: { rolesVerified: false, problem: verified?.reason ?? 'no keys' } };
    return { verdict: { rolesVerified: false } };
  }

  private verify(kind: SignedDecisionKind, raw: unknown): VerifyDecisionResult | undefined {
    if (!this.policy) return undefined;
    // A run that accepts unsigned decisions reads one without a signature as unsigned, not forged.
    const unsigned = raw === null || typeof raw !== 'object' || (raw as { signature?: unknown }).signature == null;
    if (unsigned && !this.required) return undefined;
    return verifyDecisionSignature(kind, this.workflowId, raw, this.policy, this.nowMs());
  }
}
