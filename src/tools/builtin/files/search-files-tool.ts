import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../define-tool';
import type { FileLimits } from './file-limits';
import { kindOf } from './list-files-tool';
import { openChecked } from './open-checked';
import { isInside, resolveInRoot } from './sandbox-path';
import { refuse } from '../refuse';
import type { ToolOverrides } from '../tool-overrides';

/** Directories deeper than this below the search's start are not entered. */
const MAX_DEPTH = 32;
/** Characters of a matching line shown around the match. */
const LINE_CHARS = 200;

export interface SearchMatch {
  path: string;
  /** 1-based line number. */
  line: number;
  text: string;
}

export interface SearchFilesResult {
  matches: SearchMatch[];
  filesScanned: number;
  /** Which cap stopped the search early, if one did. */
  stoppedAt?: 'maxSearchResults' | 'maxSearchFiles' | 'maxSearchBytes';
}

/** The part of `line` around the match at `at`, at most LINE_CHARS long. */
function excerpt(line: string, at: number): string {
  if (line.length <= LINE_CHARS) return line;
  const start = Math.max(0, at - LINE_CHARS / 4);
  return line.slice(start, start + LINE_CHARS);
}

/**
 * `files_search`: a literal substring search (linear time; no regular expressions) over the text
 * files under a directory. Symlinks are skipped, and every cap (matches, files, bytes) stops the
 * walk and says which one did. Read-only.
 */
export function searchFilesTool(root: string, limits: FileLimits, overrides: ToolOverrides) {
  return defineTool({
    name: 'files_search',
    type: 'file_system',
    description: `Finds lines containing a literal text in the files under a directory of the workspace root (recursive, symlinks skipped). At most ${limits.maxSearchResults} matches.`,
    input: z.object({
      query: z.string().min(1).max(1_000).describe('Literal text to find (not a regular expression)'),
      path: z.string().default('.').describe('Directory to search, relative to the root'),
      ignoreCase: z.boolean().default(false),
    }),
    effects: 'none',
    summaryTemplate: 'Searched {path} for "{query}"',
    ...overrides,
    async execute({ query, path: start, ignoreCase }): Promise<SearchFilesResult> {
      const target = await resolveInRoot(root, start);
      if (!target.exists) throw refuse(`No such directory: ${target.relative}.`);
      const needle = ignoreCase ? query.toLowerCase() : query;
      const matches: SearchMatch[] = [];
      let filesScanned = 0;
      let bytesLeft = limits.maxSearchBytes;
      const queue: Array<{ dir: string; depth: number }> = [{ dir: target.real, depth: 0 }];

      const scan = async (file: string): Promise<SearchFilesResult['stoppedAt']> => {
        if (filesScanned === limits.maxSearchFiles) return 'maxSearchFiles';
        if (bytesLeft === 0) return 'maxSearchBytes';
        filesScanned++;
        let handle;
        try {
          handle = await openChecked(target.root, file);
        } catch {
          return undefined; // Unreadable, or swapped for something else: skipped, as a symlink is.
        }
        let text: string;
        try {
          const buffer = Buffer.alloc(Math.min((await handle.stat()).size, bytesLeft));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
          bytesLeft -= bytesRead;
          const bytes = buffer.subarray(0, bytesRead);
          if (bytes.includes(0)) return undefined; // binary
          text = bytes.toString('utf8');
        } finally {
          await handle.close();
        }
        const lines = text.split('\n');
        for (let i = 0; i < lines.length; i++) {
          const line = lines[i]!;
          const at = (ignoreCase ? line.toLowerCase() : line).indexOf(needle);
          if (at === -1) continue;
          if (matches.length === limits.maxSearchResults) return 'maxSearchResults';
          matches.push({
            path: path.relative(target.root, file).split(path.sep).join('/'),
            line: i + 1,
            text: excerpt(line, at),
          });
        }
        return undefined;
      };

      for (let next = queue.shift(); next; next = queue.shift()) {
        // Re-checked: a directory met during the walk could have been swapped for a symlink since.
        const real = await fs.realpath(next.dir).catch(() => undefined);
        if (real === undefined || real !== next.dir || !isInside(target.root, real)) continue;
        const entries = await fs.readdir(real, { withFileTypes: true }).catch(() => []);
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const entry of entries) {
          const kind = kindOf(entry);
          const full = path.join(real, entry.name);
          if (kind === 'directory' && next.depth < MAX_DEPTH) queue.push({ dir: full, depth: next.depth + 1 });
          if (kind !== 'file') continue;
          const stoppedAt = await scan(full);
          if (stoppedAt) return { matches, filesScanned, stoppedAt };
        }
      }
      return { matches, filesScanned };
    },
  });
}
