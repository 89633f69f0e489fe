import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { EncryptionKeyRing } from './encryption-keys';
import { PayloadDecryptionError } from './payload-decryption-error';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const METADATA_ENCRYPTION_KEY_ID = 'encryption-key-id';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const utf8 = new TextEncoder();
const fromUtf8 = (bytes: Uint8Array | null | undefined): string | undefined =>
  bytes ? Buffer.from(bytes).toString('utf8') : undefined;

/**
 * AES-256-GCM over the whole serialized Payload proto (metadata included), with a fresh random
 * 12-byte IV per payload. Wire data is IV ‖ ciphertext ‖ 16-byte tag, the layout of Temporal's
 * encryption sample. Payloads not marked `binary/encrypted` decode unchanged, so histories
 * written before encryption was turned on still read.
 */
export class AesGcmCodec implements PayloadCodec {
  constructor(private readonly keys: EncryptionKeyRing) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const keyId = this.keys.currentKeyId;
    const key = this.keys.keys.get(keyId)!;
    return payloads.map((payload) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const plain = temporal.api.common.v1.Payload.encode(payload).finish();
      const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: {
          [METADATA_ENCODING_KEY]: utf8.encode(ENCRYPTED_ENCODING),
          [METADATA_ENCRYPTION_KEY_ID]: utf8.encode(keyId),
        },
        data,
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (fromUtf8(payload.metadata?.[METADATA_ENCODING_KEY]) !== ENCRYPTED_ENCODING) return payload;
      const keyId = fromUtf8(payload.metadata?.[METADATA_ENCRYPTION_KEY_ID]);
      if (keyId === undefined)
        throw new PayloadDecryptionError(`encrypted payload has no "${METADATA_ENCRYPTION_KEY_ID}" metadata`);
      const key = this.keys.keys.get(keyId);
      if (!key) {
        // Only the missing id: the ring's other key ids are nobody's business who can send a payload.
        throw new PayloadDecryptionError(`payload was encrypted with key "${keyId}", which is not in the key ring`);
      }
      const data = payload.data ?? new Uint8Array();
      if (data.length < IV_BYTES + TAG_BYTES)
        throw new PayloadDecryptionError(`payload encrypted with key "${keyId}" is too short to hold an IV and tag`);
      const iv = data.subarray(0, IV_BYTES);
      const tag = data.subarray(data.length - TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      let plain: Buffer;
      try {
        plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
      } catch {
        throw new PayloadDecryptionError(
          `payload failed authentication with key "${keyId}": the key is wrong or the data was altered`,
        );
      }
      return temporal.api.common.v1.Payload.decode(plain);
    });
  }
}
