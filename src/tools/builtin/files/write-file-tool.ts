import { z } from 'zod';
import { defineTool } from '../../define-tool';
import type { FileLimits } from './file-limits';
import { openBeneath } from './open-beneath';
import { resolveInRoot } from './sandbox-path';
import { refuse } from '../refuse';
import type { ToolOverrides } from '../tool-overrides';

export interface WriteFileResult {
  path: string;
  bytes: number;
  created: boolean;
}

/**
 * `files_write`: creates or replaces one file under the root. Needs approval by default
 * (`file_system`, not read-only). The parent directory must exist; a symlink is never followed.
 */
export function writeFileTool(root: string, limits: FileLimits, overrides: ToolOverrides) {
  return defineTool({
    name: 'files_write',
    type: 'file_system',
    description: `Writes a text file under the workspace root, replacing it if it exists. Paths are relative to the root; the parent directory must exist. At most ${limits.maxWriteBytes} bytes.`,
    input: z.object({
      path: z.string().min(1).describe('File path relative to the root'),
      content: z.string().describe('The whole new text of the file'),
    }),
    retry: { maximumAttempts: 1 },
    approval: 'always',
    summaryTemplate: 'Wrote {path}',
    ...overrides,
    async execute({ path, content }): Promise<WriteFileResult> {
      const bytes = Buffer.byteLength(content);
      if (bytes > limits.maxWriteBytes)
        throw refuse(`The content is ${bytes} bytes; files_write accepts at most ${limits.maxWriteBytes}.`);
      const target = await resolveInRoot(root, path);
      if (target.relative === '.') throw refuse('The path is the root directory.');
      // Opened by descriptor from the root down, without truncating: a folder swapped for a symlink fails the open.
      const { handle, created } = await openBeneath(target.root, target.relative.split('/'));
      try {
        await handle.truncate(0);
        // writeFile loops until every byte is written; a single write() may write part of a large string.
        await handle.writeFile(content, 'utf8');
        return { path: target.relative, bytes, created };
      } finally {
        await handle.close();
      }
    },
  });
}
