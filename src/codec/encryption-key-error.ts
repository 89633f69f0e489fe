/** A key ring that cannot be used. The message names the key id, never the key material. */
export class EncryptionKeyError extends Error {
  override readonly name = 'EncryptionKeyError';
}
