/** An encrypted payload that cannot be read: unknown key id, wrong key, or altered bytes. */
export class PayloadDecryptionError extends Error {
  override readonly name = 'PayloadDecryptionError';
}
