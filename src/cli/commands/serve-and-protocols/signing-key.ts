import type { CommandSpec } from '../../spec/command-line';
import { text } from '../../spec/flags';
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

export const SIGNING_KEY_COMMAND: CommandSpec = {
  name: 'signing-key',
  group: 'Serve and protocols',
  summary: 'print a new Ed25519 keyring entry for signing decisions',
  description:
    'Print a new Ed25519 keyring entry for the keyring file serve and mcp-server sign decisions with (docs/signed-decisions.md: the file, rotation).',
  examples: ['thoughtline signing-key --id k2026-11'],
  args: [],
  options: { id: text('ID', "the key's id in the keyring", { default: 'one made from the date' }) },
  run: async (l) => printSigningKey(l.text('id') !== undefined ? { id: l.text('id')! } : {}),
};
