import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { clusterStatus, startCluster, stopCluster, TEMPORAL_SERVER_VERSION } from '../../src/dev-server/cluster';
import { clusterPaths } from '../../src/dev-server/cluster/cluster-paths';
import { POSTGRES_USER } from '../../src/dev-server/cluster/database/cluster-postgres';
import { CLUSTER_PORT_NAMES } from '../../src/dev-server/cluster/roles/cluster-server-config';
import { isPortFree } from '../../src/dev-server/cluster/roles/free-ports-below';
import { findProjectRoot } from '../../src/dev-server/project-paths';
import { StatusAttribute } from '../../src/domain/run/search-attributes';
import { suiteCluster } from '../helpers/suite-cluster';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();
const PROJECT_ROOT = findProjectRoot(__dirname);

async function sql<Row>(port: number, database: string, text: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: POSTGRES_USER, database });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the cluster the suite runs on', () => {
  it('is the real server at the pinned version, its four roles in four live processes, on ports below 32768', async () => {
    const state = suiteCluster();
    expect(`127.0.0.1:${state.ports.frontendGrpc}`).toBe(inject('temporalAddress'));
    const info = await env.client.connection.workflowService.getSystemInfo({});
    expect(info.serverVersion).toBe(TEMPORAL_SERVER_VERSION);

    const status = await clusterStatus({ name: state.name });
    expect(status.condition).toBe('running');
    expect(state.processes.map((p) => p.role).sort()).toEqual(['frontend', 'history', 'matching', 'worker']);
    expect(new Set(state.processes.map((p) => p.pid)).size).toBe(4);

    // Each role has joined the ring through the membership table, with its own port.
    const members = await sql<{ role: number; rpc_port: number }>(
      state.ports.postgres,
      'temporal',
      'SELECT DISTINCT role, rpc_port FROM cluster_membership WHERE record_expiry > now()',
    );
    const expected = [
      state.ports.frontendMembership,
      state.ports.historyMembership,
      state.ports.matchingMembership,
      state.ports.workerMembership,
    ];
    expect(members.map((m) => m.rpc_port).sort()).toEqual(expect.arrayContaining(expected.sort()));
    for (const port of Object.values(state.ports)) expect(port).toBeLessThan(32768);
    const shards = await sql<{ n: string }>(state.ports.postgres, 'temporal', 'SELECT count(*) AS n FROM shards');
    expect(Number(shards[0]!.n)).toBe(state.numHistoryShards);
  });

  it('keeps visibility in PostgreSQL: a run started with a Thoughtline attribute is listed by it', async () => {
    const state = suiteCluster();
    const tag = `smoke-${randomUUID()}`;
    const handle = await env.client.workflow.start('noSuchWorkflow', {
      taskQueue: `smoke-${randomUUID()}`,
      workflowId: tag,
      typedSearchAttributes: [{ key: StatusAttribute, value: tag }],
    });
    try {
      // SQL visibility keeps a custom attribute under the column it was given (Keyword01, …), not its name.
      const rows = await eventually(
        () =>
          sql<{ attributes: string }>(
            state.ports.postgres,
            'temporal_visibility',
            'SELECT search_attributes::text AS attributes FROM executions_visibility WHERE workflow_id = $1',
            [tag],
          ),
        (r) => r.length > 0,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.attributes).toContain(tag);
      const listed = await eventually(
        async () => {
          const ids: string[] = [];
          for await (const run of env.client.workflow.list({ query: `ThoughtlineStatus = '${tag}'` }))
            ids.push(run.workflowId);
          return ids;
        },
        (ids) => ids.length > 0,
      );
      expect(listed).toEqual([tag]);
    } finally {
      await handle.terminate('smoke test done');
    }
  });
});

describe('a second cluster', () => {
  it(
    'stops exactly what it started, restarts on its data at the same address, and is deleted on request',
    { timeout: 420_000 },
    async () => {
      const name = `smoke-${randomUUID().slice(0, 8)}`;
      const paths = clusterPaths(PROJECT_ROOT, name);
      const log = (): void => {};
      try {
        const first = await startCluster({ name, namespace: 'smoke', numHistoryShards: 2, log });
        expect(first.started).toBe(true);
        const pids = first.state.processes.map((p) => p.pid);

        expect(await stopCluster({ name, log })).toBe(true);
        // Reaped by this process, their parent, within moments of exiting.
        for (const pid of pids)
          expect(
            await eventually(
              async () => isAlive(pid),
              (alive) => !alive,
              5000,
            ),
          ).toBe(false);
        for (const port of CLUSTER_PORT_NAMES.map((n) => first.state.ports[n]))
          expect(await isPortFree(port)).toBe(true);
        expect((await clusterStatus({ name })).condition).toBe('stopped');

        await expect(startCluster({ name, numHistoryShards: 3, log })).rejects.toThrow(/created with 2 history shards/);
        const again = await startCluster({ name, namespace: 'smoke', log });
        expect(again.address).toBe(first.address);
        expect(again.state.numHistoryShards).toBe(2);
        expect((await clusterStatus({ name })).condition).toBe('running');
        // Already running: returned as it is, nothing started twice.
        const third = await startCluster({ name, namespace: 'smoke', log });
        expect(third.started).toBe(false);
        expect(third.state.processes).toEqual(again.state.processes);
      } finally {
        await stopCluster({ name, deleteData: true, log });
      }
      expect(fs.existsSync(paths.dir)).toBe(false);
    },
  );
});
