import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { createServer, type RunningServer } from '../../src/server/create-server';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import type { ChainStore } from '../../src/store/chain-store';
import { openChainStore } from '../../src/store/open-chain-store';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel, startServerHarness, type Person, type ServerHarness } from '../server/server-harness';
import { CARD, HIDDEN_NOTE, storeRun, viewTools } from './store-fixture';

// chainTimeline is store-viewer's; here only that the route calls it with the chain in the caller's view.
const timelineOf = vi.hoisted(() => vi.fn());
vi.mock('../../src/domain/store/chain-timeline', async (original) => ({
  ...(await original<typeof import('../../src/domain/store/chain-timeline')>()),
  chainTimeline: timelineOf,
}));

const env = useTestEnv();
const model = routedModel();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-store-reads-'));
let store: ChainStore;
let s: ServerHarness;
/** acme's run (by dev), globex's run (by rival), and an acme run the store holds as its only copy. */
let acmeRun: string;
let globexRun: string;
let goneRun: string;
const tag = Math.random().toString(36).slice(2, 8);
const ACME_KEY = `acmekey${tag}`;
const GLOBEX_KEY = `globexkey${tag}`;

async function runToEnd(who: Person, key: string, agentName: string, turns: Parameters<typeof model.script>[1]) {
  model.script(key, turns);
  const started = await s.call(who, 'POST', '/v1/runs', { task: `${key}: do it`, model: SCRIPTED_MODEL, agentName });
  expect(started.status).toBe(201);
  const runId = started.json.runId as string;
  await eventually(
    `${runId} to end`,
    async () => {
      const { json } = await s.call(who, 'GET', `/v1/runs/${runId}`);
      return json.status === 'completed' ? json : undefined;
    },
    30_000,
  );
  return runId;
}

beforeAll(async () => {
  store = (await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') }))!;
  s = await startServerHarness(env, { tools: viewTools(), model, server: { store } });
  const finish = (answer: string) => ({ content: [useTool('finish', { result: answer })] });
  [acmeRun, globexRun, goneRun] = await Promise.all([
    runToEnd('dev', `acme-${tag}`, `acme-agent-${tag}`, [
      {
        content: [
          say('Paying and noting.'),
          useTool('pay', { card: CARD, amount: 5 }),
          useTool('audit_note', { note: HIDDEN_NOTE }),
          useTool('lookup', { key: ACME_KEY }),
        ],
      },
      finish('paid and noted'),
    ]),
    runToEnd('rival', `globex-${tag}`, `globex-agent-${tag}`, [
      { content: [useTool('lookup', { key: GLOBEX_KEY })] },
      finish('looked up'),
    ]),
    runToEnd('dev', `gone-${tag}`, `acme-agent-${tag}`, [finish('short')]),
  ]);
  for (const id of [acmeRun, globexRun, goneRun]) await storeRun(store, s.h.agents, id);
  await store.markTemporalGone(goneRun);
}, 60_000);

afterAll(async () => {
  await s?.close();
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const q = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const searchIds = async (who: Person, fields: Record<string, string>): Promise<string[]> => {
  const { status, json } = await s.call(who, 'GET', `/v1/search?${q(fields)}`);
  expect(status, JSON.stringify(json)).toBe(200);
  return (json.hits as { run: { runId: string } }[]).map((hit) => hit.run.runId);
};

describe('GET /v1/runs sorted by a column, from the store', () => {
  const list = (who: Person, fields: Record<string, string>) => s.call(who, 'GET', `/v1/runs?${q(fields)}`);
  const ids = (json: { runs: { runId: string }[] }) => json.runs.map((run) => run.runId);

  it("sorts the caller tenant's runs either way, pages with the store's token, in the caller's view", async () => {
    const agent = `acme-agent-${tag}`;
    const most = await list('dev', { agent, sort: 'iterations' });
    expect(most.status, JSON.stringify(most.json)).toBe(200);
    expect(ids(most.json)).toEqual([acmeRun, goneRun]);
    // The same row visibility gives: how it ended, time taken, iterations, the model that answered, spend.
    expect(most.json.runs[0]).toMatchObject({
      agentName: agent,
      status: 'completed',
      ending: { state: 'completed', terminationReason: 'success' },
      tenant: 'acme',
      iterations: 2,
      model: SCRIPTED_MODEL.model,
      durationMs: expect.any(Number),
      tokens: expect.any(Number),
      costUsd: expect.any(Number),
    });
    expect(ids((await list('dev', { agent, sort: 'iterations', order: 'asc' })).json)).toEqual([goneRun, acmeRun]);
    const first = await list('dev', { agent, sort: 'took', pageSize: '1' });
    expect(first.json.runs).toHaveLength(1);
    const second = await list('dev', { agent, sort: 'took', pageSize: '1', pageToken: first.json.nextPageToken });
    expect(second.json.nextPageToken).toBeUndefined();
    expect(new Set([...ids(first.json), ...ids(second.json)])).toEqual(new Set([acmeRun, goneRun]));
    // Another tenant's people never see them, whatever their roles.
    expect((await list('rival', { agent, sort: 'iterations', view: 'auditor' })).json.runs).toEqual([]);
    // The end user's rows carry no spend, and spend is not theirs to sort by.
    const user = await list('user', { agent, sort: 'iterations' });
    expect(user.json.runs.some((r: Record<string, unknown>) => 'tokens' in r || 'costUsd' in r)).toBe(false);
    const bySpend = await list('user', { agent, sort: 'cost' });
    expect([bySpend.status, bySpend.json.error.issues[0].path]).toEqual([400, ['sort']]);
  });

  it('refuses a filter the store does not hold, and a page token it did not give', async () => {
    const notStored = await list('dev', { sort: 'cost', origin: 'schedule' });
    expect([notStored.status, notStored.json.error.issues[0].path]).toEqual([400, ['origin']]);
    const badToken = await list('dev', { sort: 'cost', pageToken: 'bm90LWEtY3Vyc29y' });
    expect([badToken.status, badToken.json.error.issues[0].path]).toEqual([400, ['pageToken']]);
    expect((await list('dev', { sort: 'wobble' })).status).toBe(400);
  });
});

describe("a tenant cannot find another tenant's run", () => {
  // Each search finds acme's run for acme's developer (the negative control) and nothing for globex's
  // people, whose roles are wider (developer, ops, auditor).
  const searches: [string, () => Record<string, string>][] = [
    ['text', () => ({ text: ACME_KEY })],
    ['tool', () => ({ tool: 'pay' })],
    ['agent', () => ({ agent: `acme-agent-${tag}` })],
    ['caller', () => ({ caller: 'dev', agent: `acme-agent-${tag}` })],
    ['cost', () => ({ minCostUsd: '0', agent: `acme-agent-${tag}` })],
    ['time', () => ({ startedAfter: new Date(Date.now() - 3_600_000).toISOString(), agent: `acme-agent-${tag}` })],
    ['state', () => ({ state: 'completed', agent: `acme-agent-${tag}` })],
    ['tenant named', () => ({ tenant: 'acme', agent: `acme-agent-${tag}` })],
  ];
  it.each(searches)('GET /v1/search by %s', async (_name, fields) => {
    expect(await searchIds('dev', fields())).toContain(acmeRun);
    expect(await searchIds('rival', fields())).not.toContain(acmeRun);
    expect(await searchIds('rival', { ...fields(), view: 'auditor' })).not.toContain(acmeRun);
  });

  it('GET /v1/search with its own tenant finds its own run (and the other way round)', async () => {
    expect(await searchIds('rival', { text: GLOBEX_KEY })).toEqual([globexRun]);
    expect(await searchIds('dev', { text: GLOBEX_KEY })).toEqual([]);
    expect(await searchIds('dev', { tenant: 'globex', text: GLOBEX_KEY })).toEqual([]);
  });

  it('GET /v1/usage counts only the caller tenant', async () => {
    const mine = await s.call('dev', 'GET', `/v1/usage?agent=acme-agent-${tag}`);
    expect(mine.status).toBe(200);
    expect(mine.json.totals.runs).toBe(2);
    const theirs = await s.call('rival', 'GET', `/v1/usage?agent=acme-agent-${tag}`);
    expect(theirs.status).toBe(200);
    expect(theirs.json.rows).toEqual([]);
    expect(theirs.json.totals.runs).toBe(0);
  });

  const reads = ['chain', 'chain?source=store', 'chain?text=paid', 'summary', 'timeline', 'events'];
  it.each(reads)('GET /v1/runs/{id}/%s is 404 for another tenant, as for an unknown run', async (read) => {
    const other = await s.call('rival', 'GET', `/v1/runs/${acmeRun}/${read}`);
    const unknown = await s.call('rival', 'GET', `/v1/runs/no-such-run-${tag}/${read}`);
    expect(other.status).toBe(404);
    expect(other.json).toEqual(unknown.json);
    // The negative control: the same read is not refused to acme (timeline: once chainTimeline is built).
    const own = await s.call('dev', 'GET', `/v1/runs/${acmeRun}/${read}`);
    expect(own.status).not.toBe(404);
  });

  it('a run the store holds as its only copy is 404 to another tenant too', async () => {
    expect((await s.call('rival', 'GET', `/v1/runs/${goneRun}/chain`)).status).toBe(404);
    expect((await s.call('rival', 'GET', `/v1/runs/${goneRun}/summary`)).status).toBe(404);
  });
});

describe('roles: the store never shows more than the view', () => {
  const cases: [string, Record<string, string>][] = [
    ['a sensitive value', { text: CARD }],
    ['a hidden step', { text: HIDDEN_NOTE }],
    ["a hidden step's tool", { tool: 'audit_note' }],
  ];
  it.each(cases)('%s is found by the auditor only', async (_name, fields) => {
    expect(await searchIds('user', fields)).toEqual([]);
    expect(await searchIds('dev', fields)).toEqual([]);
    expect(await searchIds('dev', { ...fields, view: 'end_user' })).toEqual([]);
    expect(await searchIds('auditor', fields)).toEqual([acmeRun]);
  });

  it("below the auditor, a found run's tools leave out hidden ones, and excerpts come from the viewed step", async () => {
    const dev = await s.call('dev', 'GET', `/v1/search?${q({ text: ACME_KEY })}`);
    expect(dev.json.hits[0].run.tools).not.toContain('audit_note');
    expect(JSON.stringify(dev.json)).not.toContain(CARD);
    expect(dev.json.hits[0].matches[0].excerpt).toContain(ACME_KEY);
    const auditor = await s.call('auditor', 'GET', `/v1/search?${q({ text: ACME_KEY })}`);
    expect(auditor.json.hits[0].run.tools).toContain('audit_note');
  });

  it('chain filters match what the view shows', async () => {
    for (const source of ['store', 'temporal']) {
      const dev = await s.call('dev', 'GET', `/v1/runs/${acmeRun}/chain?${q({ text: CARD, source })}`);
      expect(dev.json.totalSteps, source).toBe(0);
      const auditor = await s.call('auditor', 'GET', `/v1/runs/${acmeRun}/chain?${q({ text: CARD, source })}`);
      expect(auditor.json.totalSteps, source).toBeGreaterThan(0);
      const hidden = await s.call('dev', 'GET', `/v1/runs/${acmeRun}/chain?${q({ tool: 'audit_note', source })}`);
      expect(hidden.json.totalSteps, source).toBe(0);
    }
  });

  it('usage needs the developer view or wider', async () => {
    expect((await s.call('user', 'GET', '/v1/usage')).status).toBe(403);
    expect((await s.call('dev', 'GET', '/v1/usage')).status).toBe(200);
  });
});

describe('pages from the store', () => {
  const views = ['end_user', 'developer', 'auditor'] as const;
  it.each(views)('equal the pages from Temporal in the %s view', async (view) => {
    const pages: Record<string, string>[] = [
      {},
      { limit: '2' },
      { afterStep: '2', limit: '3' },
      { types: 'tool_call,tool_result' },
    ];
    for (const extra of pages) {
      const fields = { view, ...extra };
      const fromStore = await s.call(
        'auditor',
        'GET',
        `/v1/runs/${acmeRun}/chain?${q({ ...fields, source: 'store' })}`,
      );
      const fromTemporal = await s.call(
        'auditor',
        'GET',
        `/v1/runs/${acmeRun}/chain?${q({ ...fields, source: 'temporal' })}`,
      );
      expect(fromStore.status).toBe(200);
      expect(fromStore.json.source).toBe('store');
      expect(fromStore.json.storedThroughStep).toBeGreaterThan(0);
      expect(fromTemporal.json.source).toBe('temporal');
      const { source: _a, storedThroughStep: _b, ...storePage } = fromStore.json;
      const { source: _c, ...temporalPage } = fromTemporal.json;
      expect(storePage, JSON.stringify(extra)).toEqual(temporalPage);
    }
  });

  it('say storeOnly when Temporal no longer has the run', async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${goneRun}/chain`);
    expect(json).toMatchObject({ source: 'store', storeOnly: true });
    const summary = await s.call('dev', 'GET', `/v1/runs/${goneRun}/summary`);
    expect(summary.json).toMatchObject({ source: 'store', storeOnly: true, runId: goneRun });
  });

  it('the summary counts what the view shows', async () => {
    const dev = await s.call('dev', 'GET', `/v1/runs/${acmeRun}/summary`);
    const auditor = await s.call('auditor', 'GET', `/v1/runs/${acmeRun}/summary`);
    expect(dev.json.tools.map((t: { name: string }) => t.name)).not.toContain('audit_note');
    expect(auditor.json.tools.map((t: { name: string }) => t.name)).toContain('audit_note');
    expect(auditor.json.steps).toBeGreaterThan(dev.json.steps);
    expect(dev.json.time).toMatchObject({ planningMs: 0, planningCalls: 0 });
    expect(dev.json.time.reasoningIterations).toBeGreaterThan(0);
  });
});

describe('the timeline', () => {
  it("is chainTimeline of the chain in the caller's view, with where it was read from", async () => {
    timelineOf.mockImplementation((chain: { chainId: string; startedAt: string; steps: unknown[] }) => ({
      runId: chain.chainId,
      startedAt: chain.startedAt,
      totalMs: chain.steps.length,
      lanes: 1,
      bars: [],
      omitted: 0,
    }));
    const dev = await s.call('dev', 'GET', `/v1/runs/${acmeRun}/timeline`);
    expect(dev.status).toBe(200);
    expect(dev.json).toMatchObject({ runId: acmeRun, lanes: 1, source: 'store' });
    const seen = timelineOf.mock.calls.at(-1)![0] as { steps: unknown[]; view: { role: string } };
    expect(seen.view.role).toBe('developer');
    expect(JSON.stringify(seen)).not.toContain(HIDDEN_NOTE);
    const auditor = await s.call('auditor', 'GET', `/v1/runs/${acmeRun}/timeline?source=temporal`);
    expect(auditor.json).toMatchObject({ source: 'temporal' });
    expect(auditor.json.totalMs).toBeGreaterThan(dev.json.totalMs);
  });
});

describe('events of an ended run', () => {
  it('are replayed from the store to the end event, and the stream closes', async () => {
    const response = await fetch(`${s.server.url}/v1/runs/${acmeRun}/events?view=developer`, {
      headers: { authorization: `Bearer ${s.tokens.dev}` },
    });
    expect(response.status).toBe(200);
    const text = await response.text(); // resolves only once the server closes the stream
    const events = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events[events.length - 1]).toBe('end');
    // Replayed from the store: no status event (the live stream reads Temporal's first).
    expect(events).not.toContain('status');
    const auditorChain = await s.h.agents.chain(acmeRun, 'developer');
    expect(events.filter((e) => e === 'step')).toHaveLength(auditorChain.steps.length);
    expect(text).not.toContain(HIDDEN_NOTE);
    expect(text).not.toContain(CARD);

    // Resumed after step 3: only later steps, then the end.
    const resumed = await fetch(`${s.server.url}/v1/runs/${acmeRun}/events?after=3`, {
      headers: { authorization: `Bearer ${s.tokens.auditor}` },
    });
    const ids = [...(await resumed.text()).matchAll(/^event: step\nid: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThan(0);
    expect(Math.min(...ids)).toBe(4);
  });
});

describe('bounds', () => {
  it('take inputs up to their limit and refuse one past it with 400', async () => {
    const status = async (url: string) => (await s.call('dev', 'GET', url)).status;
    expect(await status(`/v1/search?${q({ text: 'x'.repeat(200) })}`)).toBe(200);
    expect(await status(`/v1/search?${q({ text: 'x'.repeat(201) })}`)).toBe(400);
    expect(await status('/v1/search?limit=100')).toBe(200);
    expect(await status('/v1/search?limit=101')).toBe(400);
    expect(await status('/v1/search?tenant=acme&view=auditor')).toBe(403);
    expect(await status(`/v1/runs/${acmeRun}/chain?${q({ text: 'x'.repeat(201) })}`)).toBe(400);
    expect(await status(`/v1/runs/${acmeRun}/chain?types=thinking,nope`)).toBe(400);
    expect(await status(`/v1/runs/${acmeRun}/chain?source=disk`)).toBe(400);
    const to = '2026-11-26T00:00:00.000Z';
    const from = (days: number) => new Date(Date.parse(to) - days * 86_400_000).toISOString();
    expect(await status(`/v1/usage?${q({ from: from(366), to })}`)).toBe(200);
    const past = await s.call('dev', 'GET', `/v1/usage?${q({ from: from(367), to })}`);
    expect(past.status).toBe(400);
    expect(past.json.error.message).toContain('366 days');
  });
});

describe('a store that fails', () => {
  let broken: ChainStore;
  let other: RunningServer;
  beforeAll(async () => {
    broken = (await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') }))!;
    await broken.close();
    other = await createServer({
      agents: s.h.agents,
      auth: createTokenFileAuthenticator({ file: s.tokenFile, log: () => {} }),
      store: broken,
      port: 0,
    });
  });
  afterAll(async () => other?.close());

  const get = async (url: string) => {
    const response = await fetch(`${other.url}${url}`, { headers: { authorization: `Bearer ${s.tokens.dev}` } });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };

  it('chain and summary fall back to Temporal and say why', async () => {
    const chain = await get(`/v1/runs/${acmeRun}/chain`);
    expect(chain.status).toBe(200);
    expect(chain.json.source).toBe('temporal');
    expect(chain.json.storeUnavailable).toMatch(/chain store/);
    const summary = await get(`/v1/runs/${acmeRun}/summary`);
    expect(summary.json).toMatchObject({ source: 'temporal', runId: acmeRun });
    expect(summary.json.storeUnavailable).toMatch(/answered from Temporal/);
  });

  it('search answers 503 (it needs the store), never a partial answer', async () => {
    const found = await get(`/v1/search?text=${ACME_KEY}`);
    expect(found.status).toBe(503);
    expect(found.json.error.code).toBe('unavailable');
  });
});

describe('AgentClient with a store', () => {
  it('answers chain() from the store when it has the run, from Temporal when it is behind or fails', async () => {
    const fromTemporal = await s.h.agents.chain(acmeRun, 'developer', { afterStep: 1, limit: 3 });
    const agents = new AgentClient({ client: env.client, store });
    const described = vi.spyOn(agents, 'getHandle');
    expect(await agents.chain(acmeRun, 'developer', { afterStep: 1, limit: 3 })).toEqual(fromTemporal);
    expect(described).not.toHaveBeenCalled();

    await store.markBehind(acmeRun, true);
    try {
      expect(await agents.chain(acmeRun, 'developer', { afterStep: 1, limit: 3 })).toEqual(fromTemporal);
      expect(described).toHaveBeenCalled();
      const { json } = await s.call('dev', 'GET', `/v1/runs/${acmeRun}/chain`);
      expect(json.source).toBe('temporal');
    } finally {
      await store.markBehind(acmeRun, false);
    }

    const closed = (await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') }))!;
    await closed.close();
    const failing = new AgentClient({ client: env.client, store: closed });
    expect(await failing.chain(acmeRun, 'developer', { afterStep: 1, limit: 3 })).toEqual(fromTemporal);
  });
});

describe('no store', () => {
  let plain: RunningServer;
  beforeAll(async () => {
    plain = await createServer({
      agents: s.h.agents,
      auth: createTokenFileAuthenticator({ file: s.tokenFile, log: () => {} }),
      port: 0,
    });
  });
  afterAll(async () => plain?.close());
  const get = async (url: string) => {
    const response = await fetch(`${plain.url}${url}`, { headers: { authorization: `Bearer ${s.tokens.dev}` } });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };

  it('search and usage answer 503 naming THOUGHTLINE_STORE; chain reads come from Temporal', async () => {
    for (const url of [`/v1/search?text=${ACME_KEY}`, '/v1/usage']) {
      const { status, json } = await get(url);
      expect(status).toBe(503);
      expect(json.error.message).toContain('THOUGHTLINE_STORE');
    }
    const chain = await get(`/v1/runs/${acmeRun}/chain`);
    expect(chain.json.source).toBe('temporal');
    expect(chain.json.storeUnavailable).toBeUndefined();
  });

  it('a run list sorted by anything but its start, newest first, is refused naming the store; newest first is not', async () => {
    const sorted = await get('/v1/runs?sort=cost');
    expect([sorted.status, sorted.json.error.issues[0].path]).toEqual([400, ['sort']]);
    expect(sorted.json.error.message).toContain('THOUGHTLINE_STORE');
    expect((await get('/v1/runs?order=asc')).status).toBe(400);
    expect((await get('/v1/runs?sort=started&order=desc')).status).toBe(200);
  });
});
