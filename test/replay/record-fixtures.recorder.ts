import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { afterAll, beforeAll, it } from 'vitest';
import { createScriptedModel } from '../../src/activities/models/scripted-model';
import { connectTestEnv, createHarness, type TestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { REPLAY_SCENARIOS } from './scenarios';

// Run with `npm run record-fixtures` after a deliberate, versioned change to the workflow.
const FIXTURES = path.join(__dirname, 'fixtures');
let env: TestEnv;
beforeAll(async () => {
  env = await connectTestEnv();
});
afterAll(async () => env?.close());

for (const scenario of REPLAY_SCENARIOS) {
  it(`records ${scenario.name}`, async () => {
    const model = createScriptedModel(scenario.turns);
    const h = await createHarness(env, { tools: testTools().tools, models: { scripted: model } });
    const workflowId = `replay-${scenario.name}`;
    await h.worker.runUntil(async () => (await h.agents.start(scenario.input, { workflowId })).result());
    model.verify();
    const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
    fs.writeFileSync(path.join(FIXTURES, `${scenario.name}.json`), `${historyToJSON(history)}\n`);
  });
}
