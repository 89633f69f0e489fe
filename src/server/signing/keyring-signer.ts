import { ed25519 } from '@noble/curves/ed25519';
import { randomBytes } from 'node:crypto';
import { base64UrlEncode, signDecision, type DecisionSigningKey } from '../../domain/approval/signed-decision';
import type { Identity } from '../auth/identity';
import type { DecisionSigner, SignedDecisionKind } from './decision-signer';

/** A key as a signer holds it: the seed that signs, and the public half runs list under the same id. */
export type SignerKey = DecisionSigningKey & { publicKey: string };

/**
 * A signer over keys already read (a keyring file, or keys made in memory): every key signs each
 * decision, newest first, and every key's public half goes into the input of runs started from
 * now on. Who decided is stamped from `by` (authentication), whatever the payload said. Node only.
 */
export function keyringSigner(keys: readonly SignerKey[]): DecisionSigner {
  const publicKeys = Object.fromEntries(keys.map((k) => [k.keyId, k.publicKey]));
  return {
    publicKeys: () => ({ ...publicKeys }),
    sign<T extends object>(kind: SignedDecisionKind, workflowId: string, payload: T, by: Identity): T {
      const stamped =
        kind === 'approval' || kind === 'budget'
          ? { ...payload, by: { id: by.id, roles: [...by.roles] } }
          : { ...payload, by: by.id, roles: [...by.roles] };
      // Every listed key signs (newest first), so runs started before a rotation still verify.
      return signDecision(kind, workflowId, stamped, keys, new Date().toISOString()) as unknown as T;
    },
  };
}

/**
 * A signer with one fresh key that lives in memory only: for tests and for an app that embeds
 * `createServer` and whose open runs may not outlive the process. Runs started with its public
 * key accept no decision once the process is gone; `thoughtline serve` keeps a keyring file.
 */
export function inMemorySigner(keyId = `mem-${randomBytes(4).toString('hex')}`): DecisionSigner {
  const seed = new Uint8Array(randomBytes(32));
  return keyringSigner([{ keyId, seed, publicKey: base64UrlEncode(ed25519.getPublicKey(seed)) }]);
}
