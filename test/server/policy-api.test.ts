import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import type { LoadedPolicy } from '../../src/governance';
import type { ReasoningStep } from '../../src/domain';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { createServer, type RunningServer } from '../../src/server/create-server';
import type { ChainStore } from '../../src/store/chain-store';
import { openChainStore } from '../../src/store/open-chain-store';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { childRunIds } from '../helpers/sub-agent-scripts';
import { useTestEnv } from '../helpers/temporal-env';
import { storeRun } from '../store-reads/store-fixture';
import { openEvents } from './events-harness';
import {
  HIDE_THINKING_FROM_END_USERS,
  policyTools,
  policyTurns,
  THOUGHT,
  toolsCalled,
  typesOf,
  writePolicy,
} from './policy-fixture';
import { eventually, routedModel, startServerHarness, type Person, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-policy-api-'));
const tag = Math.random().toString(36).slice(2, 8);
let store: ChainStore;
/** The harness's own server: the same store, no policy (the control). */
let s: ServerHarness;
/** Servers over the same worker and store, each with a policy. */
let policed: RunningServer;
let granted: RunningServer;
let storeless: RunningServer;
let runId: string;
let childId: string;

/** Thinking hidden from end users; sub-agents' own chains hidden from end users, summaries for developers; auditors' preferences ignored. */
const POLICY = `${HIDE_THINKING_FROM_END_USERS}    subChains: hidden
  developer:
    subChains: summary
  auditor:
    preferences: false
`;

/** Views granted by role: ops reads the developer's view, developers only the end user's. */
const GRANTS = `version: 1
roles:
  end_user:
    grantedTo: [developer, ops]
    steps:
      thinking: hidden
  developer:
    grantedTo: [ops]
`;

async function serverWith(policy: LoadedPolicy, withStore: boolean): Promise<RunningServer> {
  return createServer({
    agents: s.h.agents,
    auth: createTokenFileAuthenticator({ file: s.tokenFile, log: () => {} }),
    port: 0,
    policy,
    ...(withStore ? { store } : {}),
  });
}

async function call(server: { url: string }, who: Person, method: string, url: string, body?: unknown) {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${s.tokens[who]}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

const chainOf = async (server: { url: string }, who: Person, query = '', id = runId) => {
  const answer = await call(server, who, 'GET', `/v1/runs/${encodeURIComponent(id)}/chain${query}`);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json;
};

/** The steps an event stream of the run sends `who` until it ends. */
async function streamedSteps(server: { url: string }, who: Person, query = ''): Promise<ReasoningStep[]> {
  const stream = await openEvents(server, runId, { token: s.tokens[who], ...(query ? { query } : {}) });
  expect(stream.status).toBe(200);
  await stream.waitFor('the end', (m) => m.event === 'end');
  stream.close();
  return stream.messages.filter((m) => m.event === 'step').map((m) => m.data.step as ReasoningStep);
}

const prefer = (server: { url: string }, who: Person, body: unknown) =>
  call(server, who, 'PUT', '/v1/me/preferences', body);

beforeAll(async () => {
  store = (await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') }))!;
  s = await startServerHarness(env, { tools: policyTools(), model, server: { store } });
  policed = await serverWith(await writePolicy(dir, 'policy.yaml', POLICY), true);
  granted = await serverWith(await writePolicy(dir, 'grants.yaml', GRANTS), true);
  storeless = await serverWith(await writePolicy(dir, 'policy-again.yaml', POLICY), false);

  const key = `policy-${tag}`;
  model.script(key, policyTurns('checked'));
  const started = await s.call('dev', 'POST', '/v1/runs', { task: `${key}: check`, model: SCRIPTED_MODEL });
  runId = started.json.runId;
  await eventually('the run to end', async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${runId}`);
    return json.status === 'completed' ? json : undefined;
  });
  await storeRun(store, s.h.agents, runId);

  const parentKey = `parent-${tag}`;
  model.script(parentKey, [
    { content: [say('Delegating.'), useTool('researcher', { task: `child-${tag}: find it` })] },
    { content: [useTool('finish', { result: 'parent done' })] },
  ]);
  model.script(`child-${tag}`, policyTurns('child done'));
  const parent = await s.call('dev', 'POST', '/v1/runs', {
    task: `${parentKey}: delegate`,
    model: SCRIPTED_MODEL,
    agents: { researcher: { description: 'Finds things' } },
  });
  await eventually('the parent to end', async () => {
    const { json } = await s.call('dev', 'GET', `/v1/runs/${parent.json.runId}`);
    return json.status === 'completed' ? json : undefined;
  });
  [childId] = (await childRunIds(env.client, parent.json.runId)) as [string];
}, 90_000);

afterAll(async () => {
  await Promise.all([policed?.close(), granted?.close(), storeless?.close()]);
  await s?.close();
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a policy that hides thinking from end users', () => {
  it('hides it in the chain route, from Temporal and from the store, and only from end users', async () => {
    // The control: without the policy an end user reads the thinking step.
    expect(typesOf((await chainOf(s.server, 'user', '?source=temporal')).chain)).toContain('thinking');
    for (const source of ['temporal', 'store']) {
      const user = await chainOf(policed, 'user', `?source=${source}`);
      expect(user.source).toBe(source);
      expect(typesOf(user.chain)).not.toContain('thinking');
      expect(JSON.stringify(user)).not.toContain(THOUGHT);
      expect(toolsCalled(user.chain)).toEqual(['fetch_source', 'tally', 'finish']);
      expect(typesOf((await chainOf(policed, 'dev', `?source=${source}`)).chain)).toContain('thinking');
      expect(typesOf((await chainOf(policed, 'auditor', `?source=${source}`)).chain)).toContain('thinking');
    }
    // "Show details" drops preferences, never the policy.
    expect(typesOf((await chainOf(policed, 'user', '?details=true')).chain)).not.toContain('thinking');
    // A developer reading the end user's view gets the end user's policy.
    expect(typesOf((await chainOf(policed, 'dev', '?view=end_user')).chain)).not.toContain('thinking');
  });

  it('hides it in the event stream, replayed from the store and live', async () => {
    expect((await streamedSteps(s.server, 'user')).map((step) => step.type)).toContain('thinking');
    for (const server of [policed, storeless]) {
      const user = await streamedSteps(server, 'user');
      expect(user.map((step) => step.type)).not.toContain('thinking');
      expect(user.map((step) => step.type)).toContain('tool_call');
      expect(JSON.stringify(user)).not.toContain(THOUGHT);
      expect((await streamedSteps(server, 'dev')).map((step) => step.type)).toContain('thinking');
    }
  });

  it('hides it in the store routes: summary and search', async () => {
    const summary = async (server: { url: string }, who: Person) =>
      (await call(server, who, 'GET', `/v1/runs/${runId}/summary?source=store`)).json;
    expect((await summary(s.server, 'user')).byType.thinking).toBe(1);
    expect((await summary(policed, 'user')).byType.thinking).toBe(0);
    expect((await summary(policed, 'dev')).byType.thinking).toBe(1);

    const search = `/v1/search?text=${encodeURIComponent('wombat ledger')}`;
    const hits = async (server: { url: string }, who: Person) =>
      (await call(server, who, 'GET', search)).json.hits.map((hit: { run: { runId: string } }) => hit.run.runId);
    expect(await hits(s.server, 'user')).toContain(runId);
    expect(await hits(policed, 'user')).not.toContain(runId);
    const dev = (await call(policed, 'dev', 'GET', search)).json.hits.find(
      (hit: { run: { runId: string } }) => hit.run.runId === runId,
    );
    expect(dev.matches[0].excerpt).toContain('wombat ledger');
  });
});

describe('views granted by the policy', () => {
  it('decide who reads which view, with the reason in the refusal', async () => {
    expect((await call(granted, 'ops', 'GET', '/v1/me')).json).toMatchObject({
      views: ['end_user', 'developer'],
      defaultView: 'developer',
    });
    expect((await call(granted, 'dev', 'GET', '/v1/me')).json).toMatchObject({
      views: ['end_user'],
      defaultView: 'end_user',
    });
    // Granted nothing: no view at all, where the built-in mapping gave every person the end user's.
    const nobody = await call(granted, 'user', 'GET', '/v1/me');
    expect(nobody.json.views).toEqual([]);
    expect(nobody.json.defaultView).toBeUndefined();
    const refused = await call(granted, 'user', 'GET', `/v1/runs/${runId}/chain`);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain('grants your roles');
    const devAsDeveloper = await call(granted, 'dev', 'GET', `/v1/runs/${runId}/chain?view=developer`);
    expect(devAsDeveloper.status).toBe(403);
    expect(devAsDeveloper.json.error.message).toContain('visibility policy');
    expect(typesOf((await chainOf(granted, 'dev')).chain)).not.toContain('thinking');
    expect(typesOf((await chainOf(granted, 'ops')).chain)).toContain('thinking');
    // Without grants the built-in mapping stands: ops (no developer role) reads the end user's view only.
    expect((await call(policed, 'ops', 'GET', '/v1/me')).json.views).toEqual(['end_user']);
  });
});

describe('viewer preferences', () => {
  it('round-trip per identity: two people never see each other’s', async () => {
    const fresh = await call(policed, 'ops', 'GET', '/v1/me/preferences');
    expect(fresh.json).toEqual({
      preferences: {
        thinking: true,
        externalCalls: true,
        internalCalls: true,
        finalReasoning: true,
        summariesOnly: false,
      },
      saved: false,
      applies: true,
    });
    const saved = await prefer(policed, 'ops', { thinking: false, summariesOnly: true });
    expect(saved.status).toBe(200);
    expect(saved.json.preferences).toMatchObject({ thinking: false, summariesOnly: true, externalCalls: true });
    expect((await call(policed, 'ops', 'GET', '/v1/me/preferences')).json).toMatchObject({
      preferences: { thinking: false, summariesOnly: true },
      saved: true,
    });
    // Another person of the same tenant, and one of another tenant, keep their own (none).
    expect((await call(policed, 'user', 'GET', '/v1/me/preferences')).json.saved).toBe(false);
    expect((await call(policed, 'rival', 'GET', '/v1/me/preferences')).json.saved).toBe(false);
    await prefer(policed, 'ops', {});
    expect((await call(policed, 'ops', 'GET', '/v1/me/preferences')).json.preferences.thinking).toBe(true);
  });

  it('are refused when malformed, and need the store', async () => {
    await prefer(policed, 'ops', { thinking: false });
    for (const body of [{ thinking: 'no' }, { thinking: false, colour: 'blue' }, [true], 'thinking']) {
      const refused = await prefer(policed, 'ops', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const tooBig = await prefer(policed, 'ops', { thinking: false, padding: 'x'.repeat(300 * 1024) });
    expect(tooBig.status).toBe(413);
    const off = await call(storeless, 'ops', 'GET', '/v1/me/preferences');
    expect(off.status).toBe(503);
    expect(off.json.error.message).toContain('chain store');
    expect((await prefer(storeless, 'ops', { thinking: true })).status).toBe(503);
    // Nothing refused was saved: the last good write stands.
    expect((await call(policed, 'ops', 'GET', '/v1/me/preferences')).json.preferences).toMatchObject({
      thinking: false,
      externalCalls: true,
    });
    await prefer(policed, 'ops', {});
  });

  it('narrow every read of theirs; "details" drops them; they never show more than the policy', async () => {
    // An end user who unticks external calls stops seeing them, in the chain and the stream.
    await prefer(policed, 'user', { externalCalls: false, thinking: true });
    const user = await chainOf(policed, 'user');
    expect(toolsCalled(user.chain)).toEqual(['tally', 'finish']);
    // Ticking "thinking" never shows what the policy hides.
    expect(typesOf(user.chain)).not.toContain('thinking');
    expect((await streamedSteps(policed, 'user')).map((step) => step.type)).not.toContain('thinking');
    const detailed = await chainOf(policed, 'user', '?details=true');
    expect(toolsCalled(detailed.chain)).toEqual(['fetch_source', 'tally', 'finish']);
    expect(typesOf(detailed.chain)).not.toContain('thinking');
    await prefer(policed, 'user', {});

    // A developer who hides thinking for themselves; details shows it again.
    await prefer(policed, 'dev', { thinking: false });
    expect(typesOf((await chainOf(policed, 'dev')).chain)).not.toContain('thinking');
    expect((await streamedSteps(policed, 'dev')).map((step) => step.type)).not.toContain('thinking');
    expect((await streamedSteps(policed, 'dev', 'details=true')).map((step) => step.type)).toContain('thinking');
    expect(typesOf((await chainOf(policed, 'dev', '?details=true')).chain)).toContain('thinking');
    await prefer(policed, 'dev', {});

    // The auditor's role takes no preferences: theirs are saved but not applied.
    const auditor = await prefer(policed, 'auditor', { thinking: false });
    expect(auditor.json.applies).toBe(false);
    expect(typesOf((await chainOf(policed, 'auditor')).chain)).toContain('thinking');
    await prefer(policed, 'auditor', {});
  });

  it('summaries only: the chain comes with its progress lines', async () => {
    await prefer(policed, 'dev', { summariesOnly: true });
    const summarised = await chainOf(policed, 'dev');
    expect(summarised.progressSummary.lines.length).toBeGreaterThan(0);
    expect(summarised.progressSummary.text).toContain('·');
    expect((await chainOf(policed, 'dev', '?details=true')).progressSummary).toBeUndefined();
    await prefer(policed, 'dev', {});
    expect((await chainOf(policed, 'dev')).progressSummary).toBeUndefined();
  });
});

describe("sub-agents' own runs", () => {
  it('follow the policy: hidden is a 403 naming it, summary shows no steps but the progress lines', async () => {
    const child = encodeURIComponent(childId);
    expect((await call(s.server, 'user', 'GET', `/v1/runs/${child}/chain`)).status).toBe(200);
    for (const url of [`/v1/runs/${child}/chain`, `/v1/runs/${child}`, `/v1/runs/${child}/summary`]) {
      const refused = await call(policed, 'user', 'GET', url);
      expect(refused.status, url).toBe(403);
      expect(refused.json.error.message).toContain('visibility policy hides sub-agents');
    }
    const refusedStream = await openEvents(policed, childId, { token: s.tokens.user });
    expect(refusedStream.status).toBe(403);
    expect(JSON.stringify(refusedStream.json)).toContain('visibility policy hides sub-agents');
    // Shown as its summary: the stream says how the run stands and that it ended, with no step.
    const summaryStream = await openEvents(policed, childId, { token: s.tokens.dev });
    await summaryStream.waitFor('the end', (m) => m.event === 'end');
    summaryStream.close();
    expect(summaryStream.messages.map((m) => m.event)).not.toContain('step');
    expect(summaryStream.messages.map((m) => m.event)).toContain('status');
    const summary = await chainOf(policed, 'dev', '', childId);
    expect(summary.chain.steps).toEqual([]);
    expect(summary.progressSummary.lines.length).toBeGreaterThan(0);
    expect((await chainOf(policed, 'auditor', '', childId)).chain.steps.length).toBeGreaterThan(0);
  });
});
