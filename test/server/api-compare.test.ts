import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { routedModel, startAndComplete, startServerHarness, type Person, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
let s: ServerHarness;

beforeAll(async () => {
  s = await startServerHarness(env, { tools: testTools().tools, model });
});
afterAll(async () => s?.close());

async function runToEnd(who: Person, key: string, turns: Parameters<typeof model.script>[1]): Promise<string> {
  model.script(key, turns);
  return startAndComplete(s, who, { task: `${key}: how much is it?`, model: SCRIPTED_MODEL });
}

const lookup = (key: string) => ({ content: [say(`Looking up ${key}.`), useTool('lookup', { key })] });
const finish = (answer: string) => ({ content: [useTool('finish', { result: answer })] });

describe('GET /v1/runs/{id}/compare/{other}', () => {
  it("aligns two runs by iteration in the caller's view, marking what differs; an end user sees no cost", async () => {
    const a = await runToEnd('dev', 'cmp-a', [lookup('abc'), finish('It is 30.')]);
    const b = await runToEnd('dev', 'cmp-b', [lookup('abc'), lookup('wxyz'), finish('It is 40.')]);

    const { status, json } = await s.call('dev', 'GET', `/v1/runs/${a}/compare/${b}`);
    expect(status).toBe(200);
    expect(json.a).toMatchObject({ runId: a, iterations: 2, answer: 'It is 30.', costUsd: expect.any(Number) });
    expect(json.b).toMatchObject({ runId: b, iterations: 3, answer: 'It is 40.' });
    expect(json.iterations.map((i: { differences: string[] }) => i.differences)).toEqual([
      [],
      ['thought', 'calls'],
      ['missing'],
    ]);
    expect(json.firstDifference).toBe(2);
    expect(json.answerDiffers).toBe(true);

    const user = await s.call('user', 'GET', `/v1/runs/${a}/compare/${b}`);
    expect(user.status).toBe(200);
    expect(user.json.iterations.map((i: { differences: string[] }) => i.differences)).toEqual([
      [],
      ['thought', 'calls'],
      ['missing'],
    ]);
    expect(JSON.stringify(user.json)).not.toMatch(/"costUsd"|"tokens"/);
  });

  it("answers 404 when either run is another tenant's, as for an unknown one", async () => {
    const mine = await runToEnd('dev', 'cmp-mine', [finish('mine')]);
    const theirs = await runToEnd('rival', 'cmp-theirs', [finish('theirs')]);
    for (const path of [`/v1/runs/${mine}/compare/${theirs}`, `/v1/runs/${theirs}/compare/${mine}`]) {
      const { status, json } = await s.call('dev', 'GET', path);
      expect(status).toBe(404);
      expect(json.error.message).not.toContain('theirs');
    }
    expect((await s.call('dev', 'GET', `/v1/runs/${mine}/compare/agent-unknown`)).status).toBe(404);
  });
});
