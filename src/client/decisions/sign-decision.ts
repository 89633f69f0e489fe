import type { SignedDecisionKind } from '../../domain/approval/signed-decision';

/**
 * Signs a decision just before it is sent, for the run that receives it (`workflowId`: the
 * sub-agent that waits, for an approval). The signer stamps who decided from the identity it
 * vouches for, whatever the payload said. The CLI passes one when it holds the server's keyring;
 * a run started with that keyring's public keys then counts the roles it signs.
 */
export type SignDecision = <T extends object>(kind: SignedDecisionKind, workflowId: string, payload: T) => T;

/** How a decision is sent: signed by `sign`, or (without it) unsigned, its roles claimed only. */
export interface DecisionSending {
  sign?: SignDecision;
}
