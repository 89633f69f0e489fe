import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** What a model file must be: its SHA-256 (hex) and size in bytes, pinned in the code. */
export interface PinnedWeights {
  sha256: string;
  size: number;
}

/**
 * A stamp beside a verified file, `<file>.verified`: the pin it matched and the file's size,
 * mtime and inode then. While they still hold, the file is not hashed again (98 MB is about half
 * a second; a larger model would be seconds on every start). The stamp guards against a file
 * changed or replaced by accident or by a download gone wrong, which changes its mtime or inode;
 * whoever can write the cache can also write a stamp, as they could the code that reads it.
 */
interface VerifiedStamp {
  sha256: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

const stampOf = (file: string): string => `${file}.verified`;

/**
 * 'ok' when `file` has the pinned size and SHA-256; else what it has instead, for a message.
 * `remember`: stamp a file found good (default); a temp file about to be renamed is stamped after.
 */
export async function verifyWeights(file: string, expected: PinnedWeights, remember = true): Promise<'ok' | string> {
  const stat = await fs.promises.stat(file);
  if (!stat.isFile()) return 'not a regular file';
  if (stat.size !== expected.size) return `${stat.size} bytes`;
  if (stampHolds(file, stat, expected)) return 'ok';
  const digest = await sha256Of(file);
  if (digest !== expected.sha256.toLowerCase()) return `sha256 ${digest}`;
  if (remember) await stampVerified(file, expected);
  return 'ok';
}

/** Records that `file` matched `expected` as it is now; a stamp that cannot be written only costs a hash next time. */
export async function stampVerified(file: string, expected: PinnedWeights): Promise<void> {
  const stat = await fs.promises.stat(file);
  const stamp: VerifiedStamp = {
    sha256: expected.sha256.toLowerCase(),
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    ino: stat.ino,
  };
  await fs.promises.writeFile(stampOf(file), JSON.stringify(stamp)).catch(() => undefined);
}

function stampHolds(file: string, stat: fs.Stats, expected: PinnedWeights): boolean {
  try {
    const stamp = JSON.parse(fs.readFileSync(stampOf(file), 'utf8')) as Partial<VerifiedStamp>;
    return (
      stamp.sha256 === expected.sha256.toLowerCase() &&
      stamp.size === stat.size &&
      stamp.mtimeMs === stat.mtimeMs &&
      stamp.ino === stat.ino
    );
  } catch {
    return false;
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
