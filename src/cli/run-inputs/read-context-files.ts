import fs from 'node:fs';
import path from 'node:path';
import {
  MAX_CONTEXT_BYTES,
  MAX_CONTEXT_FILE_BYTES,
  MAX_CONTEXT_FILE_NAME_CHARS,
  MAX_CONTEXT_FILES,
  type ContextFile,
} from '../../domain/run/agent-context';
import { openChecked } from '../../tools/builtin/files/open-checked';
import { isInside, resolveInRoot } from '../../tools/builtin/files/sandbox-path';
import { ToolError } from '../../tools/tool-error';
import { UsageError } from '../spec/usage-error';
import { cutUtf8 } from './cut-utf8';

/** The names `--files` gives: comma-separated, each occurrence of the option adding more. */
export function contextFileNames(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
}

/**
 * Reads `run --files` under `root` with the built-in file tools' path rules (no `..`, nothing
 * outside the root, no symlink out of it, regular files only), each cut at MAX_CONTEXT_FILE_BYTES
 * on a character boundary. Refuses, as a UsageError naming the file and the bound, a missing or
 * binary file, more than MAX_CONTEXT_FILES, one name twice, and files past MAX_CONTEXT_BYTES together.
 */
export async function readContextFiles(names: readonly string[], root: string): Promise<ContextFile[]> {
  if (names.length > MAX_CONTEXT_FILES)
    throw new UsageError(`--files names ${names.length} files; a run takes at most ${MAX_CONTEXT_FILES}.`);
  const files: ContextFile[] = [];
  let total = 0;
  for (const name of names) {
    if (name.length > MAX_CONTEXT_FILE_NAME_CHARS)
      throw new UsageError(`--files: a file name is at most ${MAX_CONTEXT_FILE_NAME_CHARS} characters.`);
    if (files.some((f) => f.name === name)) throw new UsageError(`--files names ${name} twice.`);
    const file = await readOne(name, root);
    total += Buffer.byteLength(file.content);
    if (total > MAX_CONTEXT_BYTES)
      throw new UsageError(
        `--files: with ${name} the files come to more than ${MAX_CONTEXT_BYTES} bytes, the bound of a run's whole context; name fewer.`,
      );
    files.push(file);
  }
  return files;
}

/**
 * A `--files` name that is not under the root. Names are relative to `--files-root`, so a path
 * written from the current directory (`--files-root src --files src/app.ts`) is the usual slip:
 * the message names both, and the name to give when the file is there.
 */
function missingFile(name: string, root: string): string {
  const cwd = process.cwd();
  const rootPath = path.resolve(root);
  if (rootPath === cwd)
    return `--files ${name}: no such file in the current directory (${cwd}), the default --files-root.`;
  const fromCwd = path.resolve(cwd, name);
  let hint = ' Names are relative to --files-root.';
  if (fs.existsSync(fromCwd))
    hint = isInside(rootPath, fromCwd)
      ? ` ${name} is a path from the current directory; names are relative to --files-root: --files ${path.relative(rootPath, fromCwd)}.`
      : ` ${name} is a path from the current directory, outside --files-root; give a --files-root that holds it.`;
  return `--files ${name}: no such file under --files-root ${rootPath}.${hint}`;
}

async function readOne(name: string, root: string): Promise<ContextFile> {
  try {
    const target = await resolveInRoot(root, name);
    if (!target.exists) throw new UsageError(missingFile(name, root));
    const handle = await openChecked(target.root, target.real);
    try {
      const { size } = await handle.stat();
      // One byte past the bound says whether the file was cut, even if it grew since stat.
      const buffer = Buffer.alloc(Math.min(size, MAX_CONTEXT_FILE_BYTES) + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const read = buffer.subarray(0, bytesRead);
      if (read.includes(0))
        throw new UsageError(`--files ${name}: a binary file (it holds NUL bytes); give text files.`);
      const kept = cutUtf8(read, MAX_CONTEXT_FILE_BYTES);
      return {
        name,
        content: kept.toString('utf8'),
        bytes: Math.max(size, bytesRead),
        truncated: kept.length < bytesRead,
      };
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (err instanceof ToolError) throw new UsageError(`--files ${name}: ${err.message}`);
    throw err;
  }
}
