import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { inject, it } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import { defineScorer } from '../../src/eval/define-scorer';
import { startFakeMessagesServer } from '../../src/testing';
import { createAgentWorker } from '../../src/worker';
import { useTestEnv } from '../helpers/temporal-env';
import { slowTool, testTools } from '../helpers/test-tools';
import { evalModel } from '../workflows/eval/eval-harness';
import { ENTITY_SCENARIOS, fixtureName } from './entity-scenarios';

// Records the evaluation and scores scenarios that miss a fixture (RECORD_ALL=1: every one), the
// way record-fixtures.recorder.ts does for agent runs. Run only this file:
//   npx vitest run --config vitest.record.config.mts test/replay/entity-fixtures.recorder.ts
// A fixture is `{ workflowId, history }`: replay needs the id, since child ids derive from it.
const FIXTURES = path.join(__dirname, 'entity-fixtures');
const recordAll = process.env['RECORD_ALL'] === '1';
const env = useTestEnv();

const missing = (name: string, keeps: readonly string[]) =>
  keeps.some((k) => !fs.existsSync(path.join(FIXTURES, `${fixtureName(name, k)}.json`)));
const toRecord = ENTITY_SCENARIOS.filter((s) => recordAll || missing(s.name, s.keeps));
it('has something to record', () => {
  if (toRecord.length === 0) console.log('every entity scenario has its fixtures; RECORD_ALL=1 re-records them all');
});
for (const scenario of toRecord) {
  it(`records ${scenario.name}`, async () => {
    const judge = await startFakeMessagesServer();
    const slowJobs: string[] = [];
    const taskQueue = `record-${randomUUID()}`;
    try {
      const worker = await createAgentWorker({
        connection: env.nativeConnection,
        namespace: inject('temporalNamespace'),
        taskQueue,
        tools: [...testTools().tools, slowTool(slowJobs)],
        models: {
          scripted: evalModel(),
          anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test-key-0123456789', baseURL: judge.baseUrl }),
        },
        scorers: [
          defineScorer({
            name: 'says_twenty',
            score: ({ facts }) => ({ value: facts.finalAnswer.includes('20'), why: 'checked' }),
          }),
        ],
        secrets: [],
        workflowBundle: { codePath: inject('workflowBundlePath') },
        // Every workflow task replays from the start while recording, as in the workflow tests.
        workerOptions: { maxCachedWorkflows: 0 },
      });
      const kept = await worker.runUntil(scenario.run({ client: env.client, taskQueue, slowJobs, judge }));
      fs.mkdirSync(FIXTURES, { recursive: true });
      for (const keep of scenario.keeps) {
        const execution = kept[keep];
        if (!execution) throw new Error(`${scenario.name} named no execution for ${keep}`);
        const history = await env.client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
        const fixture = { workflowId: execution.workflowId, history: JSON.parse(historyToJSON(history)) as unknown };
        fs.writeFileSync(
          path.join(FIXTURES, `${fixtureName(scenario.name, keep)}.json`),
          `${JSON.stringify(fixture, null, 2)}\n`,
        );
      }
    } finally {
      await judge.close();
    }
  }, 120_000);
}
