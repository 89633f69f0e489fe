import type { DecisionSending } from '../../src/client/decisions/sign-decision';
import type { SignedDecisionPolicy } from '../../src/domain/approval/signed-decision';
import type { DecisionSigner } from '../../src/server/signing/decision-signer';

/**
 * Decisions sent straight to Temporal with verified roles: a run started with `keysOf(signer)`
 * counts the roles `as(signer, id, roles)` signs, as one started by serve counts its people's.
 */
export const keysOf = (signer: DecisionSigner, required = false): { signedDecisions: SignedDecisionPolicy } => ({
  signedDecisions: { publicKeys: signer.publicKeys(), ...(required ? {} : { required: false }) },
});

/** How AgentClient sends a decision signed for `id` with `roles` (its `sending` argument). */
export const as = (signer: DecisionSigner, id: string, roles: readonly string[] = []): DecisionSending => ({
  sign: (kind, workflowId, payload) =>
    signer.sign(kind, workflowId, payload, { id, roles: [...roles], via: 'in-process' }),
});
