import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

/** load-node-sqlite.ts afresh (it keeps the module it loaded), on a process whose Node has no node:sqlite. */
async function onNodeWithoutSqlite() {
  vi.resetModules();
  vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
  return import('../../../src/activities/cache/load-node-sqlite.js');
}

describe('loadNodeSqlite on a Node without node:sqlite (Node 20, issue 80)', () => {
  it('throws NodeSqliteUnavailableError naming what needed it, the Node found and the Node needed', async () => {
    const { loadNodeSqlite } = await onNodeWithoutSqlite();
    const { NodeSqliteUnavailableError } =
      await import('../../../src/activities/cache/node-sqlite-unavailable-error.js');
    let error: unknown;
    try {
      loadNodeSqlite('The run cache at /tmp/cache.db');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NodeSqliteUnavailableError);
    expect(error).toMatchObject({
      what: 'The run cache at /tmp/cache.db',
      found: process.versions.node,
      needed: '22.13',
    });
    expect((error as Error).message).toMatch(
      new RegExp(
        `^The run cache at /tmp/cache\\.db needs Node's built-in node:sqlite, in Node 22\\.13 or later, and this process runs Node ${process.versions.node}\\. `,
      ),
    );
    expect((error as Error).message).toContain('~/.cache/thoughtline/node');
  });

  it('loads it on this Node (control)', async () => {
    vi.resetModules();
    const { loadNodeSqlite } = await import('../../../src/activities/cache/load-node-sqlite.js');
    expect(typeof loadNodeSqlite().DatabaseSync).toBe('function');
  });
});
