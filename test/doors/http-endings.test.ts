import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEnding } from '../../src/domain/run/run-ending';
import { ActionCounter, readRunFromTemporal } from '../../src/server/chain-store/read-run-from-temporal';
import { writeTemporalRun } from '../../src/server/chain-store/write-temporal-run';
import type { ChainStore } from '../../src/store/chain-store';
import { openChainStore } from '../../src/store/open-chain-store';
import {
  ENDING_ANSWER,
  ENDING_ERROR,
  ENDING_GIVE_UP,
  ENDINGS,
  endingInput,
  endingModel,
  type Ending,
} from '../helpers/run-endings';
import { startEndingRuns } from '../helpers/start-ending-runs';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { eventually, startServerHarness, type ServerHarness } from '../server/server-harness';

const env = useTestEnv();

/** The state each ending's run is in at every door: never `completed` for a failing one. */
const STATE: Record<Ending, string> = {
  success: 'completed',
  failure: 'failed',
  error: 'failed',
  cancelled: 'cancelled',
  stalled: 'completed',
  max_iterations: 'completed',
  cost_budget: 'completed',
};
const TONE: Record<Ending, string> = {
  success: 'ok',
  failure: 'bad',
  error: 'bad',
  cancelled: 'stopped',
  stalled: 'limit',
  max_iterations: 'limit',
  cost_budget: 'limit',
};

let s: ServerHarness;
let store: ChainStore;
let dir: string;
let ids: Record<Ending, string>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-http-endings-'));
  store = (await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') }))!;
  const model = endingModel();
  s = await startServerHarness(env, { tools: testTools().tools, model, server: { store } });
  // Started through the API as a developer of tenant acme: every door below reads them as that person.
  ids = await startEndingRuns(s.h.agents, model, async (ending) => {
    const started = await s.call('dev', 'POST', '/v1/runs', endingInput(ending));
    expect(started.status, started.json?.error?.message).toBe(201);
    return started.json.runId as string;
  });
}, 120_000);

afterAll(async () => {
  await s?.close();
  await store?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every event of a run's SSE stream (it ends after `end`), as `[type, data]`. */
async function sseEvents(runId: string, view?: string): Promise<[string, any][]> {
  const query = view ? `?view=${view}` : '';
  const response = await fetch(`${s.server.url}/v1/runs/${runId}/events${query}`, {
    headers: { authorization: `Bearer ${s.tokens.dev}` },
    signal: AbortSignal.timeout(30_000),
  });
  expect(response.status).toBe(200);
  const events: [string, any][] = [];
  for (const block of (await response.text()).split('\n\n')) {
    const type = /^event: (.+)$/m.exec(block)?.[1];
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (type && data) events.push([type, JSON.parse(data)]);
  }
  return events;
}

/** What every door that shows the whole ending must say for `ending`. */
function expectWholeEnding(ending: Ending, shown: RunEnding | undefined, door: string): void {
  expect(shown, `${door}: ${ending}`).toMatchObject({
    state: STATE[ending],
    terminationReason: ending,
    label: ending,
    tone: TONE[ending],
  });
  if (ending === 'success') expect(shown).toMatchObject({ answer: ENDING_ANSWER, answerTitle: 'Final answer' });
  if (ending === 'success') expect(shown!.grounding).toBe('grounded');
  if (ending === 'failure') expect(shown!.summary, door).toBe(`failure: ${ENDING_GIVE_UP}`);
  if (ending === 'error') {
    expect(shown!.error, door).toContain(ENDING_ERROR);
    expect(shown!.summary, door).toContain(ENDING_ERROR);
    expect(shown!.answer, door).toBeUndefined();
  }
}

describe('every HTTP door says how each of the seven runs ended (real dev server, serve, SQLite store)', () => {
  it('GET /v1/runs/{id}: the ending state as status, the reason, the answer or the error', async () => {
    await Promise.all(
      ENDINGS.map(async (ending) => {
        const { status, json } = await s.call('dev', 'GET', `/v1/runs/${ids[ending]}`);
        expect(status, ending).toBe(200);
        expect(json.status, ending).toBe(STATE[ending]);
        expectWholeEnding(ending, json.ending, 'GET /v1/runs/{id}');
      }),
    );
  });

  it('GET /v1/runs: each item with its ending state and reason (no answer), and the status and reason filters', async () => {
    const page = await eventually('every run listed with its reason', async () => {
      const { json } = await s.call('dev', 'GET', '/v1/runs?pageSize=100');
      const mine = (json.runs as any[]).filter((run) => Object.values(ids).includes(run.runId));
      return mine.length === ENDINGS.length && mine.every((run) => run.ending?.terminationReason) ? mine : undefined;
    });
    for (const ending of ENDINGS) {
      const item = page.find((run) => run.runId === ids[ending])!;
      expect(item.status, ending).toBe(STATE[ending]);
      expect(item.ending, ending).toEqual({
        state: STATE[ending],
        terminationReason: ending,
        label: ending,
        tone: TONE[ending],
        summary: ending,
      });
    }
    const listed = async (query: string): Promise<string[]> => {
      const { status, json } = await s.call('dev', 'GET', `/v1/runs?pageSize=100&${query}`);
      expect(status, json?.error?.message).toBe(200);
      const mine = new Set(Object.values(ids));
      return (json.runs as { runId: string }[]).map((run) => run.runId).filter((id) => mine.has(id));
    };
    expect((await listed('status=failed')).sort()).toEqual([ids.failure, ids.error].sort());
    expect(await listed('status=cancelled')).toEqual([ids.cancelled]);
    expect((await listed('status=completed')).sort()).toEqual(
      [ids.success, ids.stalled, ids.max_iterations, ids.cost_budget].sort(),
    );
    expect(await listed('reason=max_iterations')).toEqual([ids.max_iterations]);
  });

  it('the SSE end event carries the ending in the watcher’s view, live and replayed from the store', async () => {
    const endOf = async (ending: Ending, view?: string) => {
      const events = await sseEvents(ids[ending], view);
      const last = events.at(-1)!;
      expect(last[0], ending).toBe('end');
      return last[1];
    };
    const live = await Promise.all(ENDINGS.map(async (ending) => [ending, await endOf(ending)] as const));
    for (const [ending, end] of live) {
      expect(end.outcome, ending).toBe(STATE[ending]);
      expectWholeEnding(ending, end.ending, 'SSE end (live)');
    }
    // An end user's view of the success: the same answer, through the same gate.
    expect((await endOf('success', 'end_user')).ending.answer).toBe(ENDING_ANSWER);

    // The store, as its projection writes an ended run: then an ended run's stream is replayed from it.
    const counter = new ActionCounter();
    for (const ending of ENDINGS) {
      const read = await readRunFromTemporal(s.h.agents, ids[ending], 0, counter);
      if (read.kind !== 'found') throw new Error(`${ending}: ${read.kind}`);
      await writeTemporalRun(store, read, await store.run(ids[ending]));
    }
    const replayed = await Promise.all(ENDINGS.map(async (ending) => [ending, await endOf(ending)] as const));
    for (const [ending, end] of replayed) {
      expect(end.outcome, ending).toBe(STATE[ending]);
      expectWholeEnding(ending, end.ending, 'SSE end (store replay)');
    }
  });

  it('the store keeps the ending state and reason; search finds runs by state, reason and the task’s text', async () => {
    for (const ending of ENDINGS) {
      const row = await store.run(ids[ending]);
      expect(row, ending).toMatchObject({ state: STATE[ending], terminationReason: ending, complete: true });
    }
    const found = async (query: string): Promise<string[]> => {
      const { status, json } = await s.call('dev', 'GET', `/v1/search?includeSubAgents=true&limit=100&${query}`);
      expect(status, json?.error?.message).toBe(200);
      const mine = new Set(Object.values(ids));
      return (json.hits as { run: { runId: string } }[]).map((hit) => hit.run.runId).filter((id) => mine.has(id));
    };
    expect((await found('state=failed')).sort()).toEqual([ids.failure, ids.error].sort());
    expect(await found('state=cancelled')).toEqual([ids.cancelled]);
    for (const ending of ENDINGS) expect(await found(`reason=${ending}`), ending).toEqual([ids[ending]]);
    // Only the task holds "[ending:error]": no step of that run repeats it.
    expect(await found(`text=${encodeURIComponent('[ending:error]')}`)).toEqual([ids.error]);
  });
});
