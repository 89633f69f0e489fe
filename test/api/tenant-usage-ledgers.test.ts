import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { createMemoryBus } from '../../src/events/memory-bus';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { tokenSha256 } from '../../src/server/auth/token-hash';
import {
  createChainStoreProjection,
  type ChainStoreProjection,
} from '../../src/server/chain-store/chain-store-projection';
import { createServer, type RunningServer } from '../../src/server/create-server';
import { MAX_TENANT_PARAM } from '../../src/server/routes/tenant-usage-route';
import { zeroUsage, type AgentResult } from '../../src/domain';
import type { ModelProvider } from '../../src/domain/model/model-provider';
import { TenantUsage } from '../../src/domain/store';
import type { ChainStore } from '../../src/store/chain-store';
import { openChainStore } from '../../src/store/open-chain-store';
import { cliEnv, runCli } from '../helpers/cli-process';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { createFeedWorker, eventually } from '../store-feed/feed-harness';

/**
 * "Usage totals equal the sum of the runs' ledgers" (issue 51): scripted runs of two tenants, each
 * with its own tokens and cost per model reply, written to the chain store by the projection as
 * `serve` runs it; the tenant's usage read through the HTTP route and the CLI equals the sum of
 * its runs' AgentResult figures, and never counts the other tenant's runs.
 */
const env = useTestEnv();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-tenant-usage-'));
const file = path.join(dir, 'store.sqlite');

/** Run `i` (from its task, "usage run i: …") makes `i % 3` lookups, then finishes; each reply costs by run and turn. */
function ledgerModel(): ModelProvider {
  return {
    name: 'scripted',
    async complete(request) {
      const first = request.messages[0]?.content.map((b) => ('text' in b ? b.text : '')).join('') ?? '';
      const i = Number(first.split('usage run ')[1]?.split(':')[0] ?? 'NaN');
      if (!Number.isInteger(i)) throw new Error(`no run number in ${first.slice(0, 80)}`);
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      const content =
        turn < i % 3
          ? [say(`Looking up k${turn}.`), useTool('lookup', { key: `k${turn}` })]
          : [useTool('finish', { result: `run ${i} done` })];
      return {
        content,
        stopReason: 'tool_use',
        model: request.model,
        usage: { ...zeroUsage(), inputTokens: 100 + 10 * i + turn, outputTokens: 20 + i },
        costUsd: 0.001 * (i + 1) + 0.0001 * turn,
        durationMs: 1,
      };
    },
  };
}

/** Who calls the route: a tenant's developer and end user, the other tenant's developer, and people with no tenant. */
const PEOPLE = {
  acmeDev: { roles: ['developer'], tenant: 'acme' },
  acmeUser: { roles: [], tenant: 'acme' },
  acmeAuditor: { roles: ['auditor'], tenant: 'acme' },
  globexDev: { roles: ['developer', 'operator', 'auditor'], tenant: 'globex' },
  operator: { roles: ['operator'] },
  auditor: { roles: ['auditor'] },
  soloDev: { roles: ['developer'] },
} as const satisfies Record<string, { roles: readonly string[]; tenant?: string }>;
type Who = keyof typeof PEOPLE;

const RUNS: readonly { tenant: string; agentName: string }[] = [
  { tenant: 'acme', agentName: 'alpha' },
  { tenant: 'acme', agentName: 'alpha' },
  { tenant: 'acme', agentName: 'beta' },
  { tenant: 'globex', agentName: 'alpha' },
  { tenant: 'globex', agentName: 'gamma' },
];

let store: ChainStore;
let projection: ChainStoreProjection;
let server: RunningServer;
let storeless: RunningServer;
let results: { tenant: string; agentName: string; result: AgentResult }[] = [];
const tokens = {} as Record<Who, string>;
let since = '';
let until = '';

beforeAll(async () => {
  store = (await openChainStore({ kind: 'sqlite', file }))!;
  const bus = createMemoryBus();
  const feed = await createFeedWorker(env, ledgerModel(), bus);
  projection = createChainStoreProjection({ store, agents: feed.agents, bus, log: () => {} });
  await projection.start();
  since = new Date(Date.now() - 60_000).toISOString();
  results = await feed.worker.runUntil(() =>
    Promise.all(
      RUNS.map(async ({ tenant, agentName }, i) => {
        const handle = await feed.agents.start({
          model: SCRIPTED_MODEL,
          task: `usage run ${i}: look things up`,
          agentName,
          requireThought: false,
          caller: { id: `${tenant}-caller`, roles: [], tenant },
        });
        return { tenant, agentName, result: await handle.result() };
      }),
    ),
  );
  const ids = results.map((r) => r.result.chain.chainId);
  expect(
    await eventually(async () => (await Promise.all(ids.map((id) => store.run(id)))).every((r) => r?.complete)),
  ).toBe(true);
  until = new Date(Date.now() + 60_000).toISOString();

  const tokenFile = path.join(dir, 'tokens.json');
  const entries = Object.entries(PEOPLE).map(([id, person]) => {
    tokens[id as Who] = `tl_test_${id}_${Math.random().toString(36).slice(2)}`;
    return {
      sha256: tokenSha256(tokens[id as Who]),
      id,
      roles: [...person.roles],
      ...('tenant' in person ? { tenant: person.tenant } : {}),
    };
  });
  fs.writeFileSync(tokenFile, JSON.stringify({ tokens: entries }), { mode: 0o600 });
  const auth = () => createTokenFileAuthenticator({ file: tokenFile, log: () => {} });
  server = await createServer({ agents: feed.agents, auth: auth(), store, port: 0, log: () => {} });
  storeless = await createServer({ agents: feed.agents, auth: auth(), port: 0, log: () => {} });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await storeless?.close();
  await projection?.close();
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The sum of a tenant's runs' own ledgers (AgentResult), as TenantUsage's totals and by agent. */
function ledgers(tenant: string) {
  const sum = (rows: typeof results) => ({
    runs: rows.length,
    modelCalls: rows.reduce((n, r) => n + r.result.modelCalls, 0),
    toolCalls: rows.reduce((n, r) => n + r.result.toolCalls, 0),
    inputTokens: rows.reduce((n, r) => n + r.result.usage.inputTokens, 0),
    outputTokens: rows.reduce((n, r) => n + r.result.usage.outputTokens, 0),
    costUsd: expect.closeTo(
      rows.reduce((n, r) => n + r.result.costUsd, 0),
      9,
    ),
  });
  const mine = results.filter((r) => r.tenant === tenant);
  const agents = [...new Set(mine.map((r) => r.agentName))].sort();
  const { toolCalls: _toolCalls, ...modelRow } = sum(mine);
  return {
    totals: sum(mine),
    byAgent: agents.map((agentName) => ({ agentName, ...sum(mine.filter((r) => r.agentName === agentName)) })),
    // One model served every run: by model is the totals without tool calls.
    byModel: [{ model: SCRIPTED_MODEL.model, ...modelRow }],
  };
}

async function get(who: Who | undefined, url: string, on = server) {
  const response = await fetch(`${on.url}${url}`, who ? { headers: { authorization: `Bearer ${tokens[who]}` } } : {});
  return { status: response.status, json: (await response.json()) as any };
}

const query = () => `since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`;

describe('tenant usage equals the sum of the runs’ ledgers', () => {
  it('the runs spent something, and differently: the check is not of zeros', () => {
    const costs = results.map((r) => r.result.costUsd);
    expect(new Set(costs).size).toBe(RUNS.length);
    expect(results.map((r) => r.result.toolCalls)).toEqual([0, 1, 2, 0, 1]);
  });

  it('through the HTTP route, per tenant, for the tenant’s developer and a cross-tenant operator', async () => {
    for (const tenant of ['acme', 'globex']) {
      const reader: Who = tenant === 'acme' ? 'acmeDev' : 'auditor';
      const { status, json } = await get(reader, `/v1/tenants/${tenant}/usage?${query()}`);
      expect(status, JSON.stringify(json)).toBe(200);
      expect(TenantUsage.parse(json)).toEqual(json);
      expect(json).toEqual({ tenant, from: since, to: until, ...ledgers(tenant) });
    }
    const byOperator = await get('operator', `/v1/tenants/acme/usage?${query()}`);
    expect(byOperator.json.totals).toEqual(ledgers('acme').totals);
    // The other tenant's runs are not counted: acme's totals are acme's runs only.
    expect(byOperator.json.totals.runs).toBe(3);
  });

  it('through the CLI, as JSON and as a table', async () => {
    const cli = cliEnv({ THOUGHTLINE_STORE: `sqlite:${file}` });
    for (const tenant of ['acme', 'globex']) {
      const out = await runCli(['usage', '--tenant', tenant, '--since', since, '--until', until, '--json'], cli);
      expect(out.code, out.stderr).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual({ tenant, from: since, to: until, ...ledgers(tenant) });
    }
    const table = await runCli(['usage', '--tenant', 'globex', '--since', '1d'], cli);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^Tenant globex: runs started from \S+ until \S+$/);
    expect(lines.find((l) => l.startsWith('all agents'))).toMatch(/^all agents\s+2\s/);
    expect(lines.some((l) => l.startsWith('gamma '))).toBe(true);
    expect(lines.some((l) => l.startsWith('beta '))).toBe(false);
    expect(lines.some((l) => l.startsWith(`${SCRIPTED_MODEL.model} `))).toBe(true);
  });

  it('refuses everyone else with 403, no token with 401', async () => {
    const url = `/v1/tenants/acme/usage?${query()}`;
    expect((await get('acmeAuditor', url)).status).toBe(200);
    for (const who of ['acmeUser', 'globexDev', 'soloDev'] as const) {
      const { status, json } = await get(who, url);
      expect(status, who).toBe(403);
      expect(json.error.message).toContain('needs an identity of that tenant with the developer view or wider');
    }
    expect((await get(undefined, url)).status).toBe(401);
  });

  it('answers 400 naming the field for a range it cannot read or that is too long, and 503 without the store', async () => {
    const bad = await get('acmeDev', '/v1/tenants/acme/usage?since=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues).toEqual([{ path: ['since'], message: expect.stringContaining('7d or 12h') }]);
    const long = await get('acmeDev', '/v1/tenants/acme/usage?since=367d');
    expect(long.status).toBe(400);
    expect(long.json.error.message).toBe('A usage report covers at most 366 days; narrow since and until.');
    expect((await get('acmeDev', '/v1/tenants/acme/usage?since=366d')).status).toBe(200);
    expect((await get('acmeDev', '/v1/tenants/acme/usage?until=2026-13-01')).status).toBe(400);
    expect((await get('acmeDev', '/v1/tenants/acme/usage?tenant=globex')).status).toBe(400);
    // A tenant name at the limit is read (and is not acme's), one past it refused.
    expect((await get('acmeDev', `/v1/tenants/${'a'.repeat(MAX_TENANT_PARAM)}/usage`)).status).toBe(403);
    expect((await get('acmeDev', `/v1/tenants/${'a'.repeat(MAX_TENANT_PARAM + 1)}/usage`)).status).toBe(414);
    const off = await get('acmeDev', '/v1/tenants/acme/usage', storeless);
    expect(off.status).toBe(503);
    expect(off.json.error.message).toContain('THOUGHTLINE_STORE');
  });
});
