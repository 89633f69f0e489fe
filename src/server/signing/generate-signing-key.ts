import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519';
import { base64UrlEncode } from '../../domain/approval/signed-decision';

/** One keyring entry, and the public half a run lists under the same id. */
export interface SigningKeyEntry {
  id: string;
  privateKey: string;
  publicKey: string;
}

/** A fresh Ed25519 key for the decision-signing keyring; the id defaults to `k<date>-<4 hex>`. */
export function generateSigningKey(id?: string): SigningKeyEntry {
  const seed = new Uint8Array(randomBytes(32));
  const keyId = id ?? `k${new Date().toISOString().slice(0, 10)}-${randomBytes(2).toString('hex')}`;
  return { id: keyId, privateKey: base64UrlEncode(seed), publicKey: base64UrlEncode(ed25519.getPublicKey(seed)) };
}
