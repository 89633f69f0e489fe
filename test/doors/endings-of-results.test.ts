import { describe, expect, it } from 'vitest';
import { runEnding } from '../../src/domain/run/run-ending';
import { ENDING_ERROR, ENDING_GIVE_UP, ENDINGS, endingModel } from '../helpers/run-endings';
import { startEndingRuns } from '../helpers/start-ending-runs';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';

const env = useTestEnv();

/** The base of the door tests: each of the seven runs really ends as its name says, and runEnding reads it. */
describe('the seven endings (real dev server)', () => {
  it('each run ends with its own termination reason, and its ending says why', async () => {
    const model = endingModel();
    const h = await createHarness(env, { tools: testTools().tools, models: { scripted: model } });
    const results = await h.worker.runUntil(async () => {
      const ids = await startEndingRuns(h.agents, model);
      return Promise.all(ENDINGS.map(async (e) => [e, await h.agents.result(ids[e])] as const));
    });
    for (const [ending, result] of results) expect(result.terminationReason, ending).toBe(ending);
    const endings = Object.fromEntries(results.map(([e, result]) => [e, runEnding({ result })]));
    expect(endings.success).toMatchObject({ state: 'completed', answer: 'alpha is 50.', tone: 'ok' });
    expect(endings.failure).toMatchObject({ state: 'failed', summary: `failure: ${ENDING_GIVE_UP}` });
    expect(endings.error!.state).toBe('failed');
    expect(endings.error!.summary).toContain(ENDING_ERROR);
    expect(endings.cancelled).toMatchObject({ state: 'cancelled', tone: 'stopped' });
    for (const limit of ['stalled', 'max_iterations', 'cost_budget'])
      expect(endings[limit], limit).toMatchObject({ state: 'completed', tone: 'limit', label: limit });
  });
});
