import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ToolError } from '../../tool-error';
import { refuse } from '../refuse';

/** Longest path accepted, in UTF-8 bytes (Linux's PATH_MAX). */
export const MAX_PATH_BYTES = 4096;
/** Longest single component, in UTF-8 bytes (Linux's NAME_MAX). */
export const MAX_COMPONENT_BYTES = 255;

/** True when `candidate` is `root` or under it, on a separator boundary (`/data2` is not under `/data`). */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

/**
 * Checks the shape of a path the model sent, before any file system call: no NUL byte, no `..`
 * component, within the length caps. Returns its components relative to the root.
 */
function components(requested: string, rootReal: string, rootGiven: string): string[] {
  if (requested.includes('\0')) throw refuse('The path contains a NUL byte.');
  if (Buffer.byteLength(requested) > MAX_PATH_BYTES) throw refuse(`The path is longer than ${MAX_PATH_BYTES} bytes.`);
  const parts = requested.split(/[/\\]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw refuse('The path contains "..": give a path inside the root without parent steps.');
  if (parts.some((p) => Buffer.byteLength(p) > MAX_COMPONENT_BYTES))
    throw refuse(`A path component is longer than ${MAX_COMPONENT_BYTES} bytes.`);
  if (!path.isAbsolute(requested)) return parts;
  // An absolute path is accepted only when it names something under the root as configured or as resolved.
  for (const root of [rootReal, rootGiven]) {
    const rootParts = root.split(path.sep).filter(Boolean);
    if (isInside(root, path.join(path.sep, ...parts))) return parts.slice(rootParts.length);
  }
  throw refuse('The path is outside the root.');
}

async function realRoot(root: string): Promise<string> {
  try {
    return await fs.realpath(root);
  } catch (err) {
    throw new ToolError(
      `The tool's root directory cannot be opened: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`,
      { retryable: false, cause: err },
    );
  }
}

export interface ResolvedPath {
  /** The root's real path. */
  root: string;
  /** The real path of the target; for a target that does not exist, its nearest existing parent's real path plus the rest. */
  real: string;
  /** Path relative to the root, `/`-separated, as shown to the model (`.` for the root). */
  relative: string;
  /** Whether the target exists. */
  exists: boolean;
}

/**
 * Resolves a path the model sent against `root` and follows every symlink with `realpath`: the
 * result is refused unless it is the root or under it. A target that does not exist yet is
 * resolved through its nearest existing parent. Checked at each call: the root may move.
 */
export async function resolveInRoot(rootGiven: string, requested: string): Promise<ResolvedPath> {
  const root = await realRoot(rootGiven);
  const parts = components(requested, root, path.resolve(rootGiven));
  const target = path.join(root, ...parts);
  let real: string;
  let exists = true;
  try {
    real = await fs.realpath(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw refuse(`The path cannot be resolved: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
    exists = false;
    real = await realThroughParent(root, parts);
  }
  if (!isInside(root, real)) throw refuse('The path leads outside the root (through a symlink).');
  return { root, real, relative: path.relative(root, real).split(path.sep).join('/') || '.', exists };
}

/** The real path of the nearest existing ancestor of `root/parts`, joined with the missing rest. */
async function realThroughParent(root: string, parts: readonly string[]): Promise<string> {
  for (let kept = parts.length - 1; kept >= 0; kept--) {
    try {
      const base = await fs.realpath(path.join(root, ...parts.slice(0, kept)));
      return path.join(base, ...parts.slice(kept));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw refuse(`The path cannot be resolved: ${code ?? String(err)}.`);
    }
  }
  return root;
}
