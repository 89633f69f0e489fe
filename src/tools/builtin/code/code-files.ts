import { openBeneath } from '../files/open-beneath';
import { openChecked } from '../files/open-checked';
import { resolveInRoot } from '../files/sandbox-path';
import { refuse } from '../refuse';
import { ToolError } from '../../tool-error';
import type { CodeLimits } from './code-limits';

export interface WrittenFile {
  path: string;
  bytes: number;
}

export interface RefusedFile {
  path: string;
  reason: string;
}

/** True when `relative` (as resolved under the root) is the reserved state folder or inside it. */
const isReserved = (relative: string, reserved: string): boolean =>
  reserved !== '' && (relative === reserved || relative.startsWith(`${reserved}/`));

/**
 * Reads the files a call lists, under the root, with the file tools' checks (no `..`, symlinks
 * followed and refused outside the root, opened with O_NOFOLLOW and checked again). Refused
 * before the code runs when one is missing, outside, reserved, or past the count or byte caps.
 */
export async function readCodeInputs(
  root: string,
  paths: readonly string[],
  limits: CodeLimits,
  reserved: string,
): Promise<Array<{ path: string; data: Uint8Array }>> {
  if (paths.length > limits.maxInputFiles)
    throw refuse(`The call lists ${paths.length} files; code_run takes at most ${limits.maxInputFiles}.`);
  const files: Array<{ path: string; data: Uint8Array }> = [];
  let total = 0;
  for (const requested of paths) {
    const target = await resolveInRoot(root, requested).catch((err: unknown) => {
      throw ToolError.is(err) ? refuse(`${requested}: ${err.message}`) : err;
    });
    if (isReserved(target.relative, reserved)) throw refuse(`${requested}: ${reserved} holds code_run's own state.`);
    if (!target.exists) throw refuse(`No such file: ${target.relative}.`);
    const handle = await openChecked(target.root, target.real);
    try {
      const { size } = await handle.stat();
      total += size;
      if (total > limits.maxInputBytes)
        throw refuse(`The listed files pass ${limits.maxInputBytes} bytes together; give fewer or smaller files.`);
      const data = new Uint8Array(size);
      const { bytesRead } = await handle.read(data, 0, size, 0);
      files.push({ path: target.relative, data: data.subarray(0, bytesRead) });
    } finally {
      await handle.close();
    }
  }
  return files;
}

/**
 * Writes what the code wrote back under the root, each file through `openBeneath` (never created
 * outside the root, even with folders swapped for symlinks mid-call). A file whose folder is
 * missing, or whose path is refused, is reported and skipped; the others are still written.
 */
export async function writeCodeOutputs(
  root: string,
  files: ReadonlyArray<{ path: string; data: Uint8Array }>,
  limits: CodeLimits,
  reserved: string,
): Promise<{ written: WrittenFile[]; refused: RefusedFile[] }> {
  const written: WrittenFile[] = [];
  const refused: RefusedFile[] = [];
  let total = 0;
  for (const file of files) {
    try {
      if (written.length >= limits.maxOutputFiles) throw refuse(`past ${limits.maxOutputFiles} files`);
      total += file.data.length;
      if (total > limits.maxOutputBytes) throw refuse(`past ${limits.maxOutputBytes} bytes`);
      const target = await resolveInRoot(root, file.path);
      if (target.relative === '.') throw refuse('the path is the root directory');
      if (isReserved(target.relative, reserved)) throw refuse(`${reserved} holds code_run's own state`);
      const { handle } = await openBeneath(target.root, target.relative.split('/'));
      try {
        await handle.truncate(0);
        await handle.writeFile(file.data);
      } finally {
        await handle.close();
      }
      written.push({ path: target.relative, bytes: file.data.length });
    } catch (err) {
      if (!ToolError.is(err)) throw err;
      refused.push({ path: file.path.slice(0, 300), reason: err.message });
    }
  }
  return { written, refused };
}
