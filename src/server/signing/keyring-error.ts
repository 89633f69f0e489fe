/** A decision-signing keyring that cannot be used: unreadable, too open, or malformed. The message says how to fix it. */
export class KeyringError extends Error {
  override readonly name = 'KeyringError';
}
