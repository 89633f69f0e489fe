import fs from 'node:fs';
import { readRegularFile } from '../../files/read-regular-file';
import { ed25519 } from '@noble/curves/ed25519';
import { z } from 'zod';
import { base64UrlDecode, base64UrlEncode, MAX_DECISION_SIGNATURES } from '../../domain/approval/signed-decision';
import type { DecisionSigner } from './decision-signer';
import { KeyringError } from './keyring-error';
import { keyringSigner } from './keyring-signer';

/**
 * The keyring file: `{ "keys": [{ "id": "k2026-11", "privateKey": "<base64url 32-byte Ed25519 seed>" }] }`.
 * Every listed key signs each decision (newest first) and every key's public half goes into the
 * input of runs started from now on, so a run keeps accepting decisions for as long as one key
 * it was started with stays listed.
 */
const Keyring = z.object({
  keys: z
    .array(z.object({ id: z.string().min(1).max(200), privateKey: z.string().min(1) }))
    .min(1, 'list at least one key (generate one with `thoughtline signing-key`)')
    .max(
      MAX_DECISION_SIGNATURES,
      `list at most ${MAX_DECISION_SIGNATURES} keys; remove keys no open run was started with`,
    ),
});

export interface LoadedKey {
  keyId: string;
  seed: Uint8Array;
  publicKey: string;
}

/**
 * Reads a keyring file once and signs decisions with each of its keys. Refuses a file that group
 * or others may read (the keys let whoever holds them approve anything), a malformed one, a key
 * that is not 32 bytes of base64url, and duplicate ids. Node only (the server side).
 */
export function loadDecisionSigner(file: string): DecisionSigner {
  return keyringSigner(readSigningKeyring(file));
}

/** Largest keyring read: a few keys in JSON. */
const MAX_KEYRING_BYTES = 1024 * 1024;

/** A keyring file's keys, newest first, checked as `loadDecisionSigner` describes; exports are signed with the first. */
export function readSigningKeyring(file: string): LoadedKey[] {
  let stat: fs.Stats;
  let text: string;
  try {
    stat = fs.statSync(file);
    text = readRegularFile(file, MAX_KEYRING_BYTES).toString('utf8');
  } catch (err) {
    throw new KeyringError(`Cannot read the signing keyring ${file}: ${(err as Error).message}.`);
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8);
    throw new KeyringError(
      `The signing keyring ${file} may be read by others (mode ${mode}); its keys approve anything. Run: chmod 600 ${file}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new KeyringError(`The signing keyring ${file} is not JSON (${(err as Error).message}).`);
  }
  const parsed = Keyring.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new KeyringError(
      `The signing keyring ${file} is malformed at ${issue.path.join('.') || '(root)'}: ${issue.message}. Expected { "keys": [{ "id": "...", "privateKey": "<base64url 32-byte seed>" }] }.`,
    );
  }
  const seen = new Set<string>();
  return parsed.data.keys.map(({ id, privateKey }, i) => {
    if (seen.has(id))
      throw new KeyringError(`The signing keyring ${file} lists the key id "${id}" twice; ids must be unique.`);
    seen.add(id);
    const seed = base64UrlDecode(privateKey);
    if (!seed || seed.length !== 32)
      throw new KeyringError(
        `Key ${i} ("${id}") in ${file} is not a base64url 32-byte Ed25519 seed; generate one with \`thoughtline signing-key\`.`,
      );
    return { keyId: id, seed, publicKey: base64UrlEncode(ed25519.getPublicKey(seed)) };
  });
}
