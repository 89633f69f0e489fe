import { constants, existsSync, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { refuse } from '../refuse';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;

/**
 * Where a directory's descriptor can be named as a path. Opening `<dir>/<fd>/<name>` looks `name`
 * up in the directory the descriptor holds, not in whatever its path names now: Node's stand-in
 * for openat(2), on Linux.
 */
const FD_DIR = '/proc/self/fd';
let descriptorPaths: boolean | undefined;

/** Why a step of the walk failed, in words the model can act on. */
function walkRefusal(err: unknown, what: 'folder' | 'file'): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP')
    return refuse(
      `${what === 'folder' ? 'A folder on the path' : 'The path'} is a symlink; the file tools do not follow symlinks.`,
    );
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return refuse(what === 'folder' ? 'The parent directory does not exist.' : 'No such file.');
  if (code === 'EISDIR') return refuse('The path is a directory.');
  if (code === 'EEXIST') return refuse('The file appeared while it was being created; nothing was written.');
  if (code === 'ENXIO') return refuse('The path is not a regular file.');
  if (code === 'EACCES' || code === 'EPERM') return refuse('Permission denied.');
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Opens `parts` (a path relative to `root`, resolved and checked already) for writing, creating
 * the file when it is missing, so that nothing is ever created or written outside the root, even
 * while another process swaps folders for symlinks: the root is opened once, every folder below
 * it is opened by descriptor relative to its parent with O_NOFOLLOW | O_DIRECTORY, and the file
 * relative to the last one with O_NOFOLLOW (and O_CREAT | O_EXCL when it is new). A symlink
 * swapped in anywhere on the path fails the open; nothing is followed.
 */
export async function openBeneath(
  root: string,
  parts: readonly string[],
): Promise<{ handle: FileHandle; created: boolean }> {
  descriptorPaths ??= existsSync(FD_DIR);
  if (!descriptorPaths)
    throw refuse(
      `files_write needs ${FD_DIR} (Linux) to write without following a symlink swapped in mid-call; this system has none, so it writes nothing.`,
    );
  const name = parts.at(-1);
  if (!name) throw refuse('The path is the root directory.');
  let dir = await fs.open(root, O_RDONLY | O_DIRECTORY);
  try {
    for (const folder of parts.slice(0, -1)) {
      let next: FileHandle;
      try {
        next = await fs.open(`${FD_DIR}/${dir.fd}/${folder}`, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (err) {
        throw walkRefusal(err, 'folder');
      }
      await dir.close();
      dir = next;
    }
    const at = `${FD_DIR}/${dir.fd}/${name}`;
    let created = false;
    let handle: FileHandle;
    try {
      handle = await fs.open(at, O_WRONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw walkRefusal(err, 'file');
      try {
        handle = await fs.open(at, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
        created = true;
      } catch (again) {
        throw walkRefusal(again, 'file');
      }
    }
    const opened = await handle.stat().catch(async (err: unknown) => {
      await handle.close();
      throw err;
    });
    if (!opened.isFile()) {
      await handle.close();
      throw refuse('The path is not a regular file.');
    }
    return { handle, created };
  } finally {
    await dir.close();
  }
}
