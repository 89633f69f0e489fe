import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson, cacheKey } from '../../../src/activities/cache/cache-key';
import { lookupCached, storeCached } from '../../../src/activities/cache/cached-result';
import { lazyRunCache } from '../../../src/activities/cache/lazy-run-cache';
import { MAX_CACHED_VALUE_BYTES, type RunCache } from '../../../src/activities/cache/run-cache';
import { openSqliteRunCache, type SqliteRunCacheOptions } from '../../../src/activities/cache/sqlite-run-cache';

const open: RunCache[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-cache-'));
  dirs.push(dir);
  return path.join(dir, 'nested', 'cache.sqlite');
}

function cacheAt(file: string, options: SqliteRunCacheOptions = {}): RunCache {
  const cache = openSqliteRunCache(file, options);
  open.push(cache);
  return cache;
}

/** A clock the test moves by hand. */
function clock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A JSON string value whose JSON is exactly `bytes` bytes long (the quotes count). */
const valueOfBytes = (bytes: number): string => 'x'.repeat(bytes - 2);

describe('the SQLite run cache', () => {
  it('returns an entry within its time-to-live, and never one past it or past the reader’s', () => {
    const t = clock();
    const cache = cacheAt(tempFile(), { now: t.now });
    expect(cache.put('k', { answer: 42 }, 'run-1', 60_000)).toBe(true);
    t.advance(30_000);
    expect(cache.get('k', 60_000)).toEqual({ value: { answer: 42 }, fromRun: 'run-1', storedAt: t.now() - 30_000 });
    // A reader with a shorter time-to-live does not accept an entry older than it.
    expect(cache.get('k', 10_000)).toBeUndefined();
    t.advance(30_000);
    // Exactly at its expiry the entry is gone.
    expect(cache.get('k', 600_000)).toBeUndefined();
    expect(cache.deleteExpired()).toBe(1);
    expect(cache.deleteExpired()).toBe(0);
  });

  it('keeps a value of exactly 256 KiB and refuses one a byte over', () => {
    const cache = cacheAt(tempFile());
    expect(cache.put('at-limit', valueOfBytes(MAX_CACHED_VALUE_BYTES), 'run', 60_000)).toBe(true);
    expect(cache.put('over', valueOfBytes(MAX_CACHED_VALUE_BYTES + 1), 'run', 60_000)).toBe(false);
    expect((cache.get('at-limit', 60_000)?.value as string).length).toBe(MAX_CACHED_VALUE_BYTES - 2);
    expect(cache.get('over', 60_000)).toBeUndefined();
    // A value JSON cannot hold is not cached either.
    expect(cache.put('fn', () => 1, 'run', 60_000)).toBe(false);
  });

  it('evicts the oldest entries past the entry bound', () => {
    const t = clock();
    const cache = cacheAt(tempFile(), { now: t.now, maxEntries: 3 });
    for (const k of ['a', 'b', 'c', 'd']) {
      cache.put(k, k, 'run', 60_000);
      t.advance(1);
    }
    expect(['a', 'b', 'c', 'd'].map((k) => cache.get(k, 60_000) !== undefined)).toEqual([false, true, true, true]);
  });

  it('evicts the oldest entries past the byte bound', () => {
    const t = clock();
    const cache = cacheAt(tempFile(), { now: t.now, maxBytes: 100 });
    for (const k of ['old', 'mid', 'new']) {
      expect(cache.put(k, valueOfBytes(40), 'run', 60_000)).toBe(true);
      t.advance(1);
    }
    // 120 bytes: the oldest goes, 80 stay.
    expect(['old', 'mid', 'new'].map((k) => cache.get(k, 60_000) !== undefined)).toEqual([false, true, true]);
    // A value bigger than the whole store is not kept, and pushes nothing out.
    expect(cache.put('huge', valueOfBytes(101), 'run', 60_000)).toBe(false);
    expect(cache.get('mid', 60_000)).toBeDefined();
  });

  it('is shared by two handles on one file (two workers of one machine)', () => {
    const file = tempFile();
    const a = cacheAt(file);
    const b = cacheAt(file);
    a.put('k', 'from a', 'run-a', 60_000);
    expect(b.get('k', 60_000)?.value).toBe('from a');
  });

  it('opens lazily: no file until the first call, and a store that cannot open is a miss', () => {
    const file = tempFile();
    const lazy = lazyRunCache(() => cacheAt(file));
    expect(fs.existsSync(file)).toBe(false);
    expect(lazy.get('k', 1_000)).toBeUndefined();
    expect(fs.existsSync(file)).toBe(true);
    const errors: unknown[] = [];
    const broken = lazyRunCache(
      () => {
        throw new Error('disk full');
      },
      (err) => errors.push(err),
    );
    expect(broken.put('k', 1, 'run', 1_000)).toBe(false);
    expect(broken.get('k', 1_000)).toBeUndefined();
    expect(errors).toHaveLength(1);
  });
});

describe('cache keys', () => {
  it('do not depend on key order, and do depend on every value', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(cacheKey('t', 'tool', 'search', { q: 'x', n: 1 })).toBe(cacheKey('t', 'tool', 'search', { n: 1, q: 'x' }));
    expect(cacheKey('t', 'tool', 'search', { q: 'x' })).not.toBe(cacheKey('t', 'tool', 'search', { q: 'y' }));
    expect(cacheKey('t', 'tool', 'search', { q: 'x' })).not.toBe(cacheKey('t', 'model', 'search', { q: 'x' }));
    expect(cacheKey('t', 'tool', 'search', {})).toMatch(/^[0-9a-f]{64}$/);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });

  it('keep tenants apart: one tenant never reads another’s entry', () => {
    const t = clock();
    const cache = cacheAt(tempFile(), { now: t.now });
    const acme = { tenant: 'acme', ttlMs: 60_000 };
    const globex = { tenant: 'globex', ttlMs: 60_000 };
    expect(storeCached(cache, acme, 'tool', 'search', { q: 'x' }, 'acme result', 'run-acme')).toBe(true);
    t.advance(5_000);
    expect(lookupCached(cache, globex, 'tool', 'search', { q: 'x' }, t.now)).toBeUndefined();
    expect(lookupCached(cache, acme, 'tool', 'search', { q: 'x' }, t.now)).toEqual({
      value: 'acme result',
      hit: { kind: 'tool', fromRun: 'run-acme', storedAt: new Date(t.now() - 5_000).toISOString(), ageMs: 5_000 },
    });
  });
});
