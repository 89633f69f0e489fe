import type { DecisionSending } from '../../../client/decisions/sign-decision';
import type { Person } from '../../../domain';
import { deciderSigner } from '../../setup/decision-keyring';

/**
 * How the CLI sends `by`'s decision: signed with the keyring given or found (decision-keyring.ts),
 * so a run started with its public keys counts `by`'s roles; else unsigned, the roles claimed
 * only. The holder of the keyring is as trusted as the server that signs with it.
 */
export function decisionSending(by: Person, signingKeys: string | undefined): DecisionSending {
  const signer = deciderSigner(signingKeys);
  if (!signer) return {};
  const identity = { id: by.id, roles: [...by.roles], via: 'in-process' as const };
  return { sign: (kind, workflowId, payload) => signer.sign(kind, workflowId, payload, identity) };
}
