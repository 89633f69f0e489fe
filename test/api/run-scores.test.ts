/**
 * `POST /v1/runs/{id}/scores` and `GET /v1/runs/{id}/scores` through `serve`, with tokens: who may
 * score, what the body may say, and that an unknown run and another tenant's answer alike (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { MAX_SCORES_PER_RUN, type RunScoresState } from '../../src/domain/evaluation/run-scores';
import { runScoresWorkflowId } from '../../src/workflows/scores/run-scores-messages';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { eventually, routedModel, startServerHarness, type Person, type ServerHarness } from '../server/server-harness';

const env = useTestEnv();
const model = routedModel();
let s: ServerHarness;

beforeAll(async () => {
  s = await startServerHarness(env, { tools: [], model });
});
afterAll(async () => s?.close());

/** A run started through the API by `who`, once it has completed. */
async function completedRun(key: string, who: Person = 'dev'): Promise<string> {
  model.script(key, [{ content: [useTool('finish', { result: `answer of ${key}` })] }]);
  const started = await s.call(who, 'POST', '/v1/runs', { task: `${key}: answer`, model: SCRIPTED_MODEL });
  expect(started.status).toBe(201);
  const runId = started.json.runId as string;
  await eventually('the run to complete', async () => {
    const { json } = await s.call(who, 'GET', `/v1/runs/${runId}`);
    return json.status === 'completed' ? json : undefined;
  });
  return runId;
}
const scores = (runId: string) => `/v1/runs/${encodeURIComponent(runId)}/scores`;

describe('POST and GET /v1/runs/{id}/scores', () => {
  it('stores a score on an ended run as the caller, replaces it on a second one, and lists the scores to anyone who sees the run', async () => {
    const runId = await completedRun('scores-ok');
    const first = await s.call('dev', 'POST', scores(runId), { name: 'accepted', value: true, comment: 'merged' });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      score: { name: 'accepted', value: 1, comment: 'merged', source: 'api', by: 'dev', at: expect.any(String) },
      count: 1,
      limit: MAX_SCORES_PER_RUN,
    });
    const again = await s.call('dev', 'POST', scores(runId), { name: 'accepted', value: 0, source: 'zendesk' });
    expect(again.status).toBe(201);
    expect(again.json).toMatchObject({ score: { value: 0, source: 'zendesk' }, replaced: { value: 1 }, count: 1 });
    const audited = await s.call('auditor', 'POST', scores(runId), { name: 'review.score', value: 0.75 });
    expect(audited.status).toBe(201);

    // An end user (no role) reads the scores of a run of their tenant, but may not score it.
    const listed = await s.call('user', 'GET', scores(runId));
    expect(listed.status).toBe(200);
    expect(listed.json.scores.map((x: { name: string; by: string }) => `${x.name}/${x.by}`)).toEqual([
      'accepted/dev',
      'review.score/auditor',
    ]);
    for (const who of ['user', 'ops'] as const) {
      const refused = await s.call(who, 'POST', scores(runId), { name: 'accepted', value: 1 });
      expect(refused.status, who).toBe(403);
      expect(refused.json.error).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/developer/) });
    }
    expect((await s.call('dev', 'GET', scores(runId))).json.scores).toHaveLength(2);
  });

  it('refuses a body that sets by or at, a bad name, a value that is not a number, an unknown field: 400 with the field', async () => {
    const runId = await completedRun('scores-bad');
    const setBy = await s.call('dev', 'POST', scores(runId), { name: 'accepted', value: 1, by: 'mallory' });
    expect(setBy.status).toBe(400);
    expect(setBy.json.error).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/set by the server/),
      issues: [{ path: ['by'] }],
    });
    const setAt = await s.call('dev', 'POST', scores(runId), { name: 'accepted', value: 1, at: '1999-01-01' });
    expect(setAt.json.error.issues).toEqual([{ path: ['at'], message: 'set by the server' }]);
    const cases: Array<[unknown, string]> = [
      [{ name: 'not ok', value: 1 }, 'name'],
      [{ name: 'a'.repeat(65), value: 1 }, 'name'],
      [{ name: 'accepted', value: '1' }, 'value'],
      [{ name: 'accepted', value: 1, comment: 'c'.repeat(2_001) }, 'comment'],
      [{ name: 'accepted', value: 1, source: 'a b' }, 'source'],
      [{ name: 'accepted' }, 'value'],
    ];
    for (const [body, field] of cases) {
      const refused = await s.call('dev', 'POST', scores(runId), body);
      expect(refused.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(refused.json.error.issues[0].path).toEqual([field]);
    }
    const unknown = await s.call('dev', 'POST', scores(runId), { name: 'accepted', value: 1, weight: 2 });
    expect(unknown.status).toBe(400);
    expect((await s.call('dev', 'GET', scores(runId))).json.scores).toEqual([]);
  });

  it("answers 404 for an unknown run and for another tenant's run, scoring or reading, and stores nothing", async () => {
    const missing = await s.call('dev', 'POST', scores('agent-no-such-run'), { name: 'accepted', value: 1 });
    expect(missing.status).toBe(404);
    expect((await s.call('dev', 'GET', scores('agent-no-such-run'))).status).toBe(404);

    const runId = await completedRun('scores-tenant');
    const rival = await s.call('rival', 'POST', scores(runId), { name: 'accepted', value: 0 });
    expect(rival.status).toBe(404);
    expect(rival.json).toEqual(missing.json);
    expect((await s.call('rival', 'GET', scores(runId))).status).toBe(404);
    // A caller without a tenant sees only runs without one.
    expect((await s.call('solo', 'POST', scores(runId), { name: 'accepted', value: 0 })).status).toBe(404);
    await expect(env.client.workflow.getHandle(runScoresWorkflowId(runId)).describe()).rejects.toThrow();
    expect((await s.call('dev', 'GET', scores(runId))).json).toEqual({ scores: [] });
  });

  it('answers 409 with the reason when the run already has 200 scores', async () => {
    const runId = await completedRun('scores-full');
    const at = new Date().toISOString();
    const carried: RunScoresState = {
      schemaVersion: 1,
      runWorkflowId: runId,
      scores: Array.from({ length: MAX_SCORES_PER_RUN }, (_, i) => ({ name: `s${i}`, value: i, by: 'seed', at })),
    };
    await env.client.workflow.start('runScoresWorkflow', {
      workflowId: runScoresWorkflowId(runId),
      taskQueue: s.h.taskQueue,
      args: [{ runWorkflowId: runId, carried }],
    });
    const full = await s.call('dev', 'POST', scores(runId), { name: 'accepted', value: 1 });
    expect(full.status).toBe(409);
    expect(full.json.error.message).toMatch(/already has 200 scores/);
    await env.client.workflow.getHandle(runScoresWorkflowId(runId)).terminate('test over');
  });
});
