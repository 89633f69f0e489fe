import path from 'node:path';
import { fileLimits, type FileLimits } from './file-limits';
import { listFilesTool } from './list-files-tool';
import { readFileTool } from './read-file-tool';
import { searchFilesTool } from './search-files-tool';
import type { ToolOverrides } from '../tool-overrides';
import { writeFileTool } from './write-file-tool';

export interface FileToolsOptions extends Partial<FileLimits> {
  /** The directory the tools may touch; nothing outside it (after following symlinks) is read or written. */
  root: string;
  /** Per-tool changes, e.g. `{ write: { approval: 'never' } }`. By default only `files_write` needs approval. */
  overrides?: Partial<Record<'read' | 'list' | 'search' | 'write', ToolOverrides>>;
}

/**
 * The file tools over one root directory: `files_read`, `files_list`, `files_search` (read-only,
 * no approval) and `files_write` (approval `always` by default). Register them on a worker like any
 * tool. Every path is checked at each call, on the file system, after following symlinks.
 */
export function createFileTools(options: FileToolsOptions) {
  const { root, overrides = {}, ...limitOverrides } = options;
  if (typeof root !== 'string' || root === '' || root.includes('\0'))
    throw new TypeError('createFileTools: root must be a directory path.');
  const absolute = path.resolve(root);
  const limits = fileLimits(limitOverrides);
  return [
    readFileTool(absolute, limits, overrides.read ?? {}),
    listFilesTool(absolute, limits, overrides.list ?? {}),
    searchFilesTool(absolute, limits, overrides.search ?? {}),
    writeFileTool(absolute, limits, overrides.write ?? {}),
  ] as const;
}
