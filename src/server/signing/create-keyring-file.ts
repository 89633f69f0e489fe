import fs from 'node:fs';
import path from 'node:path';
import { generateSigningKey } from './generate-signing-key';

/**
 * Writes a keyring with one fresh key at `file` unless a file is there already; true when it
 * wrote one. Mode 0600 (its key approves anything a run's approvers may), parent folders made;
 * created exclusively, so two processes starting at once never replace each other's key, and an
 * existing keyring (which open runs were started with) is never touched. Node only.
 */
export function createKeyringFile(file: string): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const { id, privateKey } = generateSigningKey();
  try {
    fs.writeFileSync(file, `${JSON.stringify({ keys: [{ id, privateKey }] }, null, 2)}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}
