import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { isInside } from './sandbox-path';
import { refuse } from '../refuse';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** Opening errors the model can act on, in words. */
function openRefusal(err: unknown): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return refuse('The path is a symlink; the file tools do not follow symlinks.');
  if (code === 'ENOENT') return refuse('No such file.');
  if (code === 'EISDIR') return refuse('The path is a directory.');
  if (code === 'ENXIO') return refuse('The path is not a regular file.');
  if (code === 'EACCES' || code === 'EPERM') return refuse('Permission denied.');
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Opens `real` (already resolved inside `root`) for reading and checks what was opened: a regular file, and
 * still the file the path names inside the root. `O_NOFOLLOW` refuses a symlink swapped in as the
 * last component; `O_NONBLOCK` keeps a FIFO from hanging the open. The re-check after opening
 * closes the window in which a parent directory could have been swapped for a symlink. (Writes
 * go through openBeneath, which never creates anything outside the root even for that window.)
 */
export async function openChecked(root: string, real: string): Promise<FileHandle> {
  const flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
  let handle: FileHandle;
  try {
    handle = await fs.open(real, flags);
  } catch (err) {
    throw openRefusal(err);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw refuse('The path is not a regular file.');
    const again = await fs.realpath(real);
    const named = await fs.stat(again);
    if (!isInside(root, again) || named.ino !== opened.ino || named.dev !== opened.dev) {
      throw refuse('The path changed while it was being opened; nothing was read or written.');
    }
    return handle;
  } catch (err) {
    await handle.close();
    throw openRefusal(err);
  }
}
