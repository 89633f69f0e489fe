import { z } from 'zod';
import { defineTool } from '../../define-tool';
import type { FileLimits } from './file-limits';
import { openChecked } from './open-checked';
import { resolveInRoot } from './sandbox-path';
import { refuse } from '../refuse';
import type { ToolOverrides } from '../tool-overrides';

export interface ReadFileResult {
  path: string;
  /** The file's text (UTF-8), cut at the read limit. */
  content: string;
  /** The file's whole size. */
  bytes: number;
  truncated: boolean;
}

/** `files_read`: one text file under the root, at most `maxReadBytes` of it. Read-only. */
export function readFileTool(root: string, limits: FileLimits, overrides: ToolOverrides) {
  return defineTool({
    name: 'files_read',
    type: 'file_system',
    description: `Reads a text file under the workspace root. Paths are relative to the root. Returns at most ${limits.maxReadBytes} bytes; longer files are cut.`,
    input: z.object({ path: z.string().min(1).describe('File path relative to the root') }),
    effects: 'none',
    summaryTemplate: 'Read {path}',
    ...overrides,
    async execute({ path }): Promise<ReadFileResult> {
      const target = await resolveInRoot(root, path);
      if (!target.exists) throw refuse(`No such file: ${target.relative}.`);
      const handle = await openChecked(target.root, target.real);
      try {
        const { size } = await handle.stat();
        const buffer = Buffer.alloc(Math.min(size, limits.maxReadBytes));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        const shown = buffer.subarray(0, bytesRead);
        if (shown.includes(0)) throw refuse(`${target.relative} is a binary file; files_read returns text only.`);
        const truncated = size > bytesRead;
        const text = shown.toString('utf8');
        const content = truncated
          ? `${text}\n[… cut: the file is ${size} bytes, showing the first ${bytesRead}]`
          : text;
        return { path: target.relative, content, bytes: size, truncated };
      } finally {
        await handle.close();
      }
    },
  });
}
