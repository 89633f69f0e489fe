import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/activities/cache/cache-key';
import { lookupCached, storeCached } from '../../src/activities/cache/cached-result';
import { loadNodeSqlite } from '../../src/activities/cache/load-node-sqlite';
import type { CacheEntrySummary } from '../../src/activities/cache/run-cache-review';
import { openSqliteRunCache } from '../../src/activities/cache/sqlite-run-cache';
import { cliEnv, runCli } from '../helpers/cli-process';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cache-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const plan = (description: string) => ({
  tasks: [{ id: 't1', description, dependencies: [], requiredTools: [], status: 'pending' }],
  source: 'model',
  version: 1,
});

describe('thoughtline cache', () => {
  it('lists what a tenant’s runs cached (plans with their tasks) with the run and time, apart from other tenants; forgets one or all', async () => {
    const file = path.join(dir, 'cache.sqlite');
    // A file made before entries were labelled: the old table, and one entry of a run without a tenant.
    const old = new (loadNodeSqlite().DatabaseSync)(file);
    old.exec(`CREATE TABLE run_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, bytes INTEGER NOT NULL,
      from_run TEXT NOT NULL, stored_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)`);
    const legacyKey = cacheKey(undefined, 'plan', 'old goal', ['lookup']);
    old
      .prepare('INSERT INTO run_cache VALUES (?, ?, ?, ?, ?, ?)')
      .run(legacyKey, JSON.stringify(plan('old task')), 10, 'run-old', Date.now(), Date.now() + 60_000);
    old.close();

    const cache = openSqliteRunCache(file);
    const ttlMs = 60_000;
    storeCached(cache, { ttlMs }, 'plan', 'quarter summarise', ['lookup'], plan('Summarise the quarter'), 'run-mine');
    storeCached(cache, { ttlMs }, 'tool', 'lookup', { word: 'temporal' }, { result: 'x' }, 'run-mine');
    storeCached(
      cache,
      { tenant: 'default', ttlMs },
      'plan',
      'quarter summarise',
      ['lookup'],
      plan('Ignore the goal'),
      'run-d',
    );
    storeCached(cache, { tenant: 'acme', ttlMs }, 'plan', 'report write', ['lookup'], plan('Write it'), 'run-acme');
    // The entry from before still reads for runs without a tenant.
    expect(lookupCached(cache, { ttlMs }, 'plan', 'old goal', ['lookup'])?.hit.fromRun).toBe('run-old');
    cache.close();

    const env = cliEnv({ THOUGHTLINE_CACHE_FILE: file });
    const listed = await runCli(['cache', 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^[0-9a-f]{64} {2}tool lookup\n {2}from run run-mine, stored \S+Z, expires \S+Z\n/m);
    expect(listed.stdout).toMatch(/^[0-9a-f]{64} {2}plan quarter summarise\n.*\n {4}- t1: Summarise the quarter\n/m);
    expect(listed.stdout).not.toContain('Ignore the goal');
    expect(listed.stdout).not.toContain('Write it');

    const json = await runCli(['cache', 'list', '--tenant', 'default', '--kind', 'plan', '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    const entries = JSON.parse(json.stdout) as CacheEntrySummary[];
    expect(entries).toEqual([
      expect.objectContaining({ kind: 'plan', name: 'quarter summarise', tenant: 'default', fromRun: 'run-d' }),
    ]);
    expect(entries[0]!.plan).toMatchObject({ tasks: [{ description: 'Ignore the goal' }] });

    // Forgetting one: a key of another tenant is left alone.
    const acmeKey = cacheKey('acme', 'plan', 'report write', ['lookup']);
    const wrongOwner = await runCli(['cache', 'delete', '--tenant', 'default', '--key', acmeKey], env);
    expect(wrongOwner.stdout).toBe('Forgot 0 cached entries of tenant default.\n');
    const one = await runCli(['cache', 'delete', '--tenant', 'default', '--key', entries[0]!.key], env);
    expect(one.stdout).toBe('Forgot 1 cached entry of tenant default.\n');
    const all = await runCli(['cache', 'delete', '--all'], env);
    expect(all.stdout).toBe('Forgot 2 cached entries of runs without a tenant.\n');
    const none = await runCli(['cache', 'list'], env);
    expect(none.stdout).toBe('The run cache holds nothing for runs without a tenant.\n');
    const acme = await runCli(['cache', 'list', '--tenant', 'acme'], env);
    expect(acme.stdout).toContain('from run run-acme');
  });

  it('a missing or conflicting option is a usage error (exit 2)', async () => {
    const env = cliEnv({ THOUGHTLINE_CACHE_FILE: path.join(dir, 'none.sqlite') });
    const cases: Array<[string[], RegExp]> = [
      [['cache', 'show'], /cache takes list or delete, not "show"/],
      [['cache', 'delete'], /--key KEY \(repeatable\) or --all, one of them/],
      [['cache', 'delete', '--key', 'nope'], /--key takes an entry key as listed/],
      [['cache', 'list', '--kind', 'memo'], /--kind takes tool, model or plan/],
      [['cache', 'list', '--all'], /--key and --all go with cache delete/],
      [['cache', 'delete', '--all', '--json'], /--json goes with cache list/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runCli(args, env);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(message);
    }
    expect(fs.existsSync(path.join(dir, 'none.sqlite'))).toBe(false);
  });
});
