import { randomBytes } from 'node:crypto';
import { EncryptionKeyError } from './encryption-key-error';

/** AES-256 needs exactly 32 bytes of key. */
export const ENCRYPTION_KEY_BYTES = 32;

/** Keys by id. `currentKeyId` encrypts; every key decrypts (older ones stay for rotation). */
export interface EncryptionKeyRing {
  readonly currentKeyId: string;
  readonly keys: ReadonlyMap<string, Buffer>;
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Parses `k2:BASE64,k1:BASE64` (e.g. THOUGHTLINE_ENCRYPTION_KEYS). The first key is current.
 * Errors name the key id or the entry's position and never echo key material.
 */
export function parseEncryptionKeys(spec: string): EncryptionKeyRing {
  const entries = spec
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  if (entries.length === 0)
    throw new EncryptionKeyError('no encryption keys given; expected "id:base64key[,id:base64key…]"');
  const keys = new Map<string, Buffer>();
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon).trim();
    if (!KEY_ID.test(id)) {
      throw new EncryptionKeyError(
        `encryption key #${index + 1} needs an id of 1-64 letters, digits, ".", "_" or "-" before ":" (expected "id:base64key")`,
      );
    }
    if (keys.has(id)) throw new EncryptionKeyError(`encryption key id "${id}" appears twice`);
    const encoded = entry.slice(colon + 1).trim();
    if (!BASE64.test(encoded)) throw new EncryptionKeyError(`encryption key "${id}" is not standard base64`);
    const key = Buffer.from(encoded, 'base64');
    if (key.length !== ENCRYPTION_KEY_BYTES) {
      throw new EncryptionKeyError(
        `encryption key "${id}" is ${key.length} bytes; AES-256 needs ${ENCRYPTION_KEY_BYTES}`,
      );
    }
    keys.set(id, key);
  });
  return { currentKeyId: [...keys.keys()][0]!, keys };
}

/** A fresh random key as `id:base64`, ready to put first in THOUGHTLINE_ENCRYPTION_KEYS. */
export function generateEncryptionKey(id: string): string {
  if (!KEY_ID.test(id)) throw new EncryptionKeyError(`key id "${id}" must be 1-64 letters, digits, ".", "_" or "-"`);
  return `${id}:${randomBytes(ENCRYPTION_KEY_BYTES).toString('base64')}`;
}
