import fs from 'node:fs';
import path from 'node:path';
import { kindOf, readOpenedFile } from './read-regular-file';
import { RegularFileError } from './regular-file-error';

const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants;

/**
 * Where a folder's descriptor can be named as a path: `<FD_DIR>/<fd>/<name>` looks `name` up in
 * the folder the descriptor holds, not in whatever its path names now (Node's openat(2), Linux).
 */
const FD_DIR = '/proc/self/fd';
let descriptorPaths: boolean | undefined;

/** What the file is opened for: reading it, creating it new (never replacing one), or appending to it (made when missing). */
export type FolderOpen = 'read' | 'create' | 'append';

const FINAL_FLAGS: Readonly<Record<FolderOpen, number>> = {
  read: O_RDONLY | O_NOFOLLOW | O_NONBLOCK,
  create: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
  append: O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK,
};

/**
 * The components of `relative`, a path that must stay inside its folder: refused when absolute,
 * when it holds a `..` step or a NUL byte, or names the folder itself. `.` steps and repeated
 * slashes are dropped. Pure: no file system call.
 */
export function partsInside(relative: string, file: string): string[] {
  const outside = (why: string) =>
    new RegularFileError(file, 'outside', `${why}; only a path inside its folder is read`);
  if (relative.includes('\0')) throw outside('the path holds a NUL byte');
  if (path.isAbsolute(relative) || relative.startsWith('\\')) throw outside('an absolute path');
  const parts = relative.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw outside('the path steps out with ".."');
  if (parts.length === 0) throw outside('the path names the folder itself');
  return parts;
}

/**
 * Opens `relative` inside `folder` (the folder itself may be reached through symlinks: it is the
 * one a person named) without following a symlink below it: not the file, not a folder on the way.
 * On Linux every step is opened by descriptor relative to the one before (O_NOFOLLOW, O_DIRECTORY
 * for folders), so a folder swapped for a symlink between a check and the open is still refused:
 * no window. Elsewhere each step is checked with lstat, the file opened with O_NOFOLLOW, and what
 * was opened compared (device, inode, real path inside the folder) with what the path names after:
 * a swap made and undone between the two can go unseen there. `create` makes missing folders on
 * the way; `read` never waits on a pipe (O_NONBLOCK). Returns the descriptor of a regular file,
 * which the caller closes; every refusal is a RegularFileError naming the path, never its content.
 */
export function openInFolder(folder: string, relative: string, purpose: FolderOpen): number {
  const file = path.join(folder, relative);
  const parts = partsInside(relative, file);
  descriptorPaths ??= fs.existsSync(FD_DIR);
  const fd = descriptorPaths
    ? openByDescriptor(folder, parts, purpose, file)
    : openByPath(folder, parts, purpose, file);
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) {
    fs.closeSync(fd);
    throw new RegularFileError(file, 'not_regular', `not a regular file (it is ${kindOf(stat)})`);
  }
  return fd;
}

/** The bytes of `relative` inside `folder` (openInFolder's rules), at most `maxBytes`, checked before reading. */
export function readInFolder(folder: string, relative: string, maxBytes: number): Buffer {
  const fd = openInFolder(folder, relative, 'read');
  try {
    return readOpenedFile(fd, path.join(folder, relative), maxBytes);
  } finally {
    fs.closeSync(fd);
  }
}

function openByDescriptor(folder: string, parts: readonly string[], purpose: FolderOpen, file: string): number {
  let dir = openOrRefuse(folder, O_RDONLY | O_DIRECTORY, folder);
  try {
    for (const [i, part] of parts.slice(0, -1).entries()) {
      const at = `${FD_DIR}/${dir}/${part}`;
      const shown = path.join(folder, ...parts.slice(0, i + 1));
      if (purpose !== 'read') makeFolder(at, shown);
      const next = openOrRefuse(at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, shown);
      fs.closeSync(dir);
      dir = next;
    }
    return openOrRefuse(`${FD_DIR}/${dir}/${parts.at(-1)!}`, FINAL_FLAGS[purpose], file, 0o644);
  } finally {
    fs.closeSync(dir);
  }
}

function openByPath(folder: string, parts: readonly string[], purpose: FolderOpen, file: string): number {
  const root = fs.realpathSync(folder);
  for (const [i, part] of parts.slice(0, -1).entries()) {
    const shown = path.join(folder, ...parts.slice(0, i), part);
    if (purpose !== 'read') makeFolder(shown, shown);
    const stat = lstatOrRefuse(shown);
    if (stat.isSymbolicLink()) throw symlink(shown);
    if (!stat.isDirectory()) throw new RegularFileError(shown, 'not_regular', `not a folder (it is ${kindOf(stat)})`);
  }
  const fd = openOrRefuse(file, FINAL_FLAGS[purpose], file, 0o644);
  try {
    const opened = fs.fstatSync(fd);
    const real = fs.realpathSync(file);
    const named = fs.statSync(real);
    if (!real.startsWith(root + path.sep) || named.dev !== opened.dev || named.ino !== opened.ino)
      throw new RegularFileError(file, 'symlink', 'the path changed while it was opened; nothing was read or written');
    return fd;
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

/** Makes a missing folder; an existing entry is left for the O_NOFOLLOW open to judge (mkdir follows no symlink). */
function makeFolder(at: string, shown: string): void {
  try {
    fs.mkdirSync(at, 0o755);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw refusal(err, at, shown);
  }
}

function openOrRefuse(at: string, flags: number, shown: string, mode?: number): number {
  try {
    return fs.openSync(at, flags, mode);
  } catch (err) {
    throw refusal(err, at, shown);
  }
}

function lstatOrRefuse(at: string): fs.Stats {
  try {
    return fs.lstatSync(at);
  } catch (err) {
    throw refusal(err, at, at);
  }
}

const symlink = (shown: string) =>
  new RegularFileError(shown, 'symlink', 'a symlink, which is not followed here (it could lead anywhere)');

/** The refusal for an open or mkdir that failed at `at` (shown as `shown`): a symlink is told apart by lstat. */
function refusal(err: unknown, at: string, shown: string): RegularFileError {
  const code = (err as NodeJS.ErrnoException).code ?? String(err);
  if (code === 'ELOOP') return symlink(shown);
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    // O_DIRECTORY | O_NOFOLLOW on a symlink is ENOTDIR; O_CREAT | O_EXCL on one is EEXIST.
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) return symlink(shown);
    if (code === 'EEXIST') return new RegularFileError(shown, 'exists', 'already there; nothing was replaced', code);
    return new RegularFileError(shown, 'not_regular', `not a folder (it is ${stat ? kindOf(stat) : 'missing'})`, code);
  }
  if (code === 'ENOENT') return new RegularFileError(shown, 'missing', 'no such file', code);
  if (code === 'ENXIO') return new RegularFileError(shown, 'not_regular', 'not a regular file', code);
  return new RegularFileError(shown, 'unreadable', `cannot be opened (${code})`, code);
}
