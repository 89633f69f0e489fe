import { generateSigningKey } from '../../../server/signing/generate-signing-key';

/**
 * `signing-key [--id ID]`: prints a keyring entry (`{ "id", "privateKey" }`) on stdout, and on
 * stderr where it goes and its public key. Rotation: add the new entry first in `keys`.
 */
export function printSigningKey(options: { id?: string } = {}): number {
  const { id, privateKey, publicKey } = generateSigningKey(options.id);
  process.stdout.write(`${JSON.stringify({ id, privateKey })}\n`);
  process.stderr.write(
    `Add this entry FIRST in "keys" of your keyring file (chmod 600); public key ${publicKey}. See docs/signed-decisions.md for rotation.\n`,
  );
  return 0;
}
