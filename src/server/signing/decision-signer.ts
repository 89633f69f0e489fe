import type { Identity } from '../auth/identity';

/** What a person decides through the server: the three decisions a run may require signed. */
export type SignedDecisionKind = 'approval' | 'answer' | 'steer' | 'budget';

/**
 * Signs decisions on behalf of authenticated people, so a run that requires signatures can tell
 * a decision the server vouched for from one sent straight to Temporal.
 */
export interface DecisionSigner {
  /** keyId → public key, for `AgentInput` of runs that require signatures. */
  publicKeys(): Record<string, string>;
  /** The payload as the run's message expects it, with the signature fields added. */
  sign<T extends object>(kind: SignedDecisionKind, workflowId: string, payload: T, by: Identity): T;
}
