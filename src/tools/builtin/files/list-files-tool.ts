import { promises as fs, type Dirent } from 'node:fs';
import { z } from 'zod';
import { defineTool } from '../../define-tool';
import type { FileLimits } from './file-limits';
import { resolveInRoot } from './sandbox-path';
import { refuse } from '../refuse';
import type { ToolOverrides } from '../tool-overrides';

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface ListFilesResult {
  path: string;
  entries: Array<{ name: string; kind: EntryKind }>;
  /** More entries exist than `maxListEntries`. */
  truncated: boolean;
}

/** The entry's own kind: a symlink is reported as one and never followed. */
export function kindOf(entry: Dirent): EntryKind {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  return entry.isFile() ? 'file' : 'other';
}

/** `files_list`: the entries of one directory under the root (not recursive), at most `maxListEntries`. Read-only. */
export function listFilesTool(root: string, limits: FileLimits, overrides: ToolOverrides) {
  return defineTool({
    name: 'files_list',
    type: 'file_system',
    description: `Lists the entries of a directory under the workspace root (not recursive). Paths are relative to the root; "." is the root. At most ${limits.maxListEntries} entries.`,
    input: z.object({ path: z.string().default('.').describe('Directory path relative to the root') }),
    effects: 'none',
    summaryTemplate: 'Listed {path}',
    ...overrides,
    async execute({ path }): Promise<ListFilesResult> {
      const target = await resolveInRoot(root, path);
      if (!target.exists) throw refuse(`No such directory: ${target.relative}.`);
      let dir;
      try {
        dir = await fs.opendir(target.real);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw refuse(
          code === 'ENOTDIR'
            ? `${target.relative} is not a directory.`
            : `The directory cannot be opened: ${code ?? String(err)}.`,
        );
      }
      const entries: ListFilesResult['entries'] = [];
      let truncated = false;
      try {
        // Streamed, so a huge directory costs no more than the cap.
        for (let entry = await dir.read(); entry; entry = await dir.read()) {
          if (entries.length === limits.maxListEntries) {
            truncated = true;
            break;
          }
          entries.push({ name: entry.name, kind: kindOf(entry) });
        }
      } finally {
        await dir.close();
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return { path: target.relative, entries, truncated };
    },
  });
}
