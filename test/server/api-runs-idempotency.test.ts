import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import type { Identity } from '../../src/server/auth/identity';
import { idempotentRunId } from '../../src/server/routes/idempotent-start';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { eventually, routedModel, startServerHarness, type Person, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
let s: ServerHarness;

beforeAll(async () => {
  s = await startServerHarness(env, { tools: testTools().tools, model });
});
afterAll(async () => s?.close());

const finish = (answer: string) => ({ content: [useTool('finish', { result: answer })] });

/** POST /v1/runs as `who`, with `key` as the Idempotency-Key when given, for a run scripted to finish at once. */
async function start(who: Person, task: string, key?: string): Promise<{ status: number; json: any }> {
  const response = await fetch(`${s.server.url}/v1/runs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${s.tokens[who]}`,
      'content-type': 'application/json',
      ...(key !== undefined ? { 'Idempotency-Key': key } : {}),
    },
    body: JSON.stringify({ task, model: SCRIPTED_MODEL }),
  });
  return { status: response.status, json: await response.json() };
}

/** The executions Temporal's visibility lists for `query`, on this file's queue. */
async function executions(query: string): Promise<Array<{ workflowId: string; runId: string }>> {
  const found = [];
  for await (const run of env.client.workflow.list({ query: `TaskQueue = '${s.h.taskQueue}' AND ${query}` }))
    found.push({ workflowId: run.workflowId, runId: run.runId });
  return found;
}

const statusOf = async (who: Person, runId: string): Promise<string> => {
  const response = await fetch(`${s.server.url}/v1/runs/${runId}`, {
    headers: { authorization: `Bearer ${s.tokens[who]}` },
  });
  return response.status === 200 ? ((await response.json()) as { status: string }).status : String(response.status);
};

describe('POST /v1/runs with an Idempotency-Key', () => {
  it('starts one run per key: a retry, at once or after the run ended, answers 200 with the first run', async () => {
    model.script('idem-once', [finish('done once')]);
    const first = await start('dev', 'idem-once: report', 'order-7781:attempt');
    expect(first.status).toBe(201);
    const runId = first.json.runId as string;
    expect(runId).toMatch(/^run-[0-9a-f]{32}$/);
    expect(first.json).toEqual({
      runId,
      links: { self: `/v1/runs/${runId}`, chain: `/v1/runs/${runId}/chain`, events: `/v1/runs/${runId}/events` },
      duplicate: false,
    });

    // A retry with another body still gets the first run: bodies are not compared.
    const retry = await start('dev', 'idem-once: something else', 'order-7781:attempt');
    expect(retry).toEqual({ status: 200, json: { ...first.json, duplicate: true } });

    await eventually('the run to complete', async () =>
      (await statusOf('dev', runId)) === 'completed' ? true : undefined,
    );
    const late = await start('dev', 'idem-once: report', 'order-7781:attempt');
    expect(late).toEqual({ status: 200, json: { ...first.json, duplicate: true } });

    // One execution under that id, the first body's; its one model call was the only one.
    const described = await s.h.agents.getHandle(runId).describe();
    expect(described.status.name).toBe('COMPLETED');
    expect(described.memo?.task).toBe('idem-once: report');
    const listed = await eventually('the run to be listed', async () => {
      const found = await executions(`WorkflowId = '${runId}'`);
      return found.length > 0 ? found : undefined;
    });
    expect(listed).toEqual([{ workflowId: runId, runId: described.runId }]);
  });

  it('answers two starts sent at once with one run: one 201, the other 200', async () => {
    model.script('idem-race', [finish('raced')]);
    const both = await Promise.all([
      start('dev', 'idem-race: report', 'race'),
      start('dev', 'idem-race: report', 'race'),
    ]);
    expect(both.map((b) => b.status).sort()).toEqual([200, 201]);
    expect(both[0]!.json.runId).toBe(both[1]!.json.runId);
    await eventually('the run to complete', async () =>
      (await statusOf('dev', both[0]!.json.runId)) === 'completed' ? true : undefined,
    );
  });

  it("keeps each caller's keys apart: the same key from another caller, in this tenant or another, is another run", async () => {
    const key = 'shared-key-1';
    const runs: Partial<Record<Person, string>> = {};
    for (const who of ['dev', 'user', 'rival'] as const) {
      model.script(`idem-${who}`, [finish(who)]);
      const started = await start(who, `idem-${who}: report`, key);
      expect(started.status, who).toBe(201);
      expect(started.json.duplicate, who).toBe(false);
      runs[who] = started.json.runId;
    }
    expect(new Set(Object.values(runs)).size).toBe(3);
    // Each run is its starter's: another tenant's caller does not learn it exists.
    expect(await statusOf('rival', runs.dev!)).toBe('404');
    expect(await statusOf('dev', runs.rival!)).toBe('404');
    for (const who of ['dev', 'user', 'rival'] as const)
      await eventually(`${who}'s run to complete`, async () =>
        (await statusOf(who, runs[who]!)) === 'completed' ? true : undefined,
      );
  });

  it("refuses to hand over a run under the key's id that the caller did not start (409)", async () => {
    // Only a start outside the API can choose such an id: here, another person's run put there directly.
    const dev: Identity = { id: 'dev', roles: ['developer'], tenant: 'acme', via: 'token' };
    model.script('idem-squat', [finish('squat')]);
    await s.h.agents.start(
      { task: 'idem-squat: report', model: SCRIPTED_MODEL, caller: { id: 'user', roles: [], tenant: 'acme' } },
      { workflowId: idempotentRunId(dev, 'squatted') },
    );
    const refused = await start('dev', 'idem-squat: report', 'squatted');
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toMatch(/taken by a run you did not start/);
  });

  it('refuses a malformed or repeated key with 400 naming the header, and starts nothing', async () => {
    for (const key of ['', 'has space', 'x'.repeat(129), 'slash/key', 'clé']) {
      const refused = await start('solo', 'idem-refused: report', key);
      expect(refused.status, JSON.stringify(key)).toBe(400);
      expect(refused.json.error.code).toBe('bad_request');
      expect(refused.json.error.issues[0].path).toEqual(['Idempotency-Key']);
      expect(refused.json.error.message).toMatch(/Idempotency-Key: 1 to 128 letters, digits/);
    }
    // Sent twice, two header lines (fetch would join them into one value).
    const twice = await new Promise<{ status: number; json: any }>((resolve, reject) => {
      const request = http.request(`${s.server.url}/v1/runs`, {
        method: 'POST',
        // Given as raw lines, Node adds no Host of its own.
        headers: [
          'Host',
          new URL(s.server.url).host,
          'Authorization',
          `Bearer ${s.tokens.solo}`,
          'Content-Type',
          'application/json',
          'Idempotency-Key',
          'a',
          'Idempotency-Key',
          'b',
        ],
      });
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, json: JSON.parse(text) }));
      });
      request.on('error', reject);
      request.end(JSON.stringify({ task: 'idem-refused: report', model: SCRIPTED_MODEL }));
    });
    expect(twice.status).toBe(400);
    expect(twice.json.error).toMatchObject({
      message: 'Idempotency-Key was sent 2 times; send it once.',
      issues: [{ path: ['Idempotency-Key'], message: 'sent more than once' }],
    });

    // A start after the refusals is the only run solo has once visibility shows it.
    model.script('idem-plain', [finish('plain')]);
    const plain = await start('solo', 'idem-plain: report');
    const listed = await eventually('the plain run to be listed', async () => {
      const found = await executions(`ThoughtlineCaller = 'solo'`);
      return found.some((run) => run.workflowId === plain.json.runId) ? found : undefined;
    });
    expect(listed.map((run) => run.workflowId)).toEqual([plain.json.runId]);
  });

  it('without the header starts a run each time and answers 201 as before, with no duplicate field', async () => {
    const answers = [];
    for (const n of [1, 2]) {
      model.script(`idem-none-${n}`, [finish('none')]);
      answers.push(await start('ops', `idem-none-${n}: report`));
    }
    for (const { status, json } of answers) {
      expect(status).toBe(201);
      expect(Object.keys(json).sort()).toEqual(['links', 'runId']);
      expect(json.runId).toMatch(/^agent-/);
    }
    expect(answers[0]!.json.runId).not.toBe(answers[1]!.json.runId);
  });
});
