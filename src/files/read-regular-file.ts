import fs from 'node:fs';
import { RegularFileError } from './regular-file-error';

const { O_RDONLY, O_NONBLOCK } = fs.constants;
const CHUNK_BYTES = 1024 * 1024;

/**
 * The bytes of a file a person named (a dataset, a baseline, a settings or key file), at most
 * `maxBytes`, refusing anything but a regular file after following symlinks, as `--files` and
 * `--context @FILE` do: a named pipe would hang the reader, a device (`/dev/zero`) never end.
 * Opened with O_NONBLOCK and checked on the opened descriptor, so a file swapped for a pipe after
 * a check is still refused and opening a FIFO never waits for a writer. Synchronous: small files.
 */
export function readRegularFile(file: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NONBLOCK);
  } catch (err) {
    throw openError(file, err);
  }
  try {
    return readOpenedFile(fd, file, maxBytes);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The bytes of a file already open as `fd` (the caller closes it), at most `maxBytes`: checked on
 * the descriptor (a regular file, its size) before a byte is read, then read to the end in chunks,
 * so a file that grew since is still bounded. `file` only names it in errors.
 */
export function readOpenedFile(fd: number, file: string, maxBytes: number): Buffer {
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile())
      throw new RegularFileError(
        file,
        'not_regular',
        `not a regular file (it is ${kindOf(stat)}); only regular files are read`,
      );
    if (stat.size > maxBytes)
      throw new RegularFileError(file, 'too_large', `${stat.size} bytes, over the ${maxBytes}-byte limit`, stat.size);
    // Read to the end, not to fstat's size: a file that grew since is still bounded.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes)
        throw new RegularFileError(file, 'too_large', `more than ${maxBytes} bytes, the limit`, total);
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    if (err instanceof RegularFileError) throw err;
    throw openError(file, err);
  }
}

function openError(file: string, err: unknown): RegularFileError {
  const code = (err as NodeJS.ErrnoException).code ?? String(err);
  if (code === 'ENOENT') return new RegularFileError(file, 'missing', 'no such file', code);
  if (code === 'ENXIO')
    // A socket (or a FIFO on some systems) cannot be opened for reading at all.
    return new RegularFileError(file, 'not_regular', 'not a regular file; only regular files are read', code);
  return new RegularFileError(file, 'unreadable', `cannot be read (${code})`, code);
}

export function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}
