import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { it } from 'vitest';
import { createScriptedModel } from '../../src/activities/models/scripted-model';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { REMOTE_CARD, REPLAY_SCENARIOS } from './scenarios';

// `npm run record-fixtures` records the scenarios that have no fixture yet. Older fixtures stay:
// they are how a change that breaks running workflows gets caught. RECORD_ALL=1 redoes every one,
// only after a deliberate change to what a run records, in the same commit as that change and
// with the reason in its message; open runs stay on the worker deployment version that started them.
const FIXTURES = path.join(__dirname, 'fixtures');
const recordAll = process.env['RECORD_ALL'] === '1';
const env = useTestEnv();

const toRecord = REPLAY_SCENARIOS.filter((s) => recordAll || !fs.existsSync(path.join(FIXTURES, `${s.name}.json`)));
it('has something to record', () => {
  if (toRecord.length === 0) console.log('every scenario has a fixture; RECORD_ALL=1 re-records them all');
});
for (const scenario of toRecord) {
  it(`records ${scenario.name}`, async () => {
    const model = createScriptedModel(scenario.turns);
    const remote = await scenario.remote?.();
    const input = remote
      ? (JSON.parse(JSON.stringify(scenario.input).replaceAll(REMOTE_CARD, remote.card)) as typeof scenario.input)
      : scenario.input;
    const h = await createHarness(env, {
      tools: [...testTools().tools, ...(scenario.extraTools?.() ?? [])],
      models: { scripted: model },
      ...(scenario.tenantLimits ? { tenantLimits: scenario.tenantLimits } : {}),
      ...(scenario.mcp ? { mcp: scenario.mcp() } : {}),
      ...(remote ? { a2a: remote.a2a } : {}),
    });
    const workflowId = `replay-${scenario.name}`;
    await h.worker.runUntil(async () => {
      const handle = await h.agents.start(input, { workflowId });
      await scenario.interact?.(h.agents, workflowId);
      return handle.result();
    });
    await remote?.close();
    model.verify();
    const history = await env.client.workflow
      .getHandle(workflowId, scenario.fixtureRun === 'first' ? await firstRunId(workflowId) : undefined)
      .fetchHistory();
    fs.writeFileSync(path.join(FIXTURES, `${scenario.name}.json`), `${historyToJSON(history)}\n`);
    // A run that waits for a tenant's minute (tenant-rate-limited) takes a little over a minute.
  }, 150_000);
}

/** The run the workflow started with, before any continue-as-new. */
async function firstRunId(workflowId: string): Promise<string> {
  const runs: Array<{ runId: string; start: number }> = [];
  for await (const run of env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
    runs.push({ runId: run.runId, start: run.startTime.getTime() });
  return runs.sort((a, b) => a.start - b.start)[0]!.runId;
}
