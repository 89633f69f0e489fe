import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { loopDatasetTools } from '../../src/eval/loop-dataset';
import { createEvalReplay } from '../../src/eval/replay';
import { createOfflineModel } from '../../src/offline/offline-model';
import { caseWorkflowId, factsOf, scoreCase, type EvalCase, type Score } from '../../src/shared/eval';
import type { AgentResult } from '../../src/shared';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { caseInput, DATASET, readDataset } from './loop-dataset';

const env = useTestEnv();
const cases = readDataset();
const evaluationId = `loop-gate-${Date.now()}`;

let h: AgentHarness;
let agents: AgentClient;
let running: Promise<void>;
beforeAll(async () => {
  const replay = createEvalReplay({
    evaluationId,
    cases: cases
      .filter((c) => c.replay)
      .map((c) => ({ id: c.id, recordingFile: path.resolve(path.dirname(DATASET), c.replay!) })),
  });
  h = await createHarness(env, {
    tools: replay.wrapTools(loopDatasetTools),
    models: { anthropic: createOfflineModel(), replay: replay.provider },
    cacheWorkflows: true,
  });
  agents = new AgentClient({ client: env.client, taskQueue: h.taskQueue });
  running = h.worker.run();
});
afterAll(async () => {
  h?.worker.shutdown();
  await running;
});

/** One case run as the evaluation runs it (the offline model for Claude, recordings replayed), and its scores. */
async function runCase(c: EvalCase): Promise<{ result: AgentResult; scores: Score[] }> {
  const handle = await agents.start(caseInput(c) as never, {
    workflowId: caseWorkflowId(evaluationId, c, 'offline', 0),
  });
  const result = await handle.result();
  const scores = scoreCase(c.expect, factsOf(result, { finish: 'finish', giveUp: 'give_up' }));
  return { result, scores };
}

describe('eval/loop.jsonl on today’s loop (offline model, real dev server)', () => {
  it('passes every score of every case', { timeout: 240_000 }, async () => {
    const runs = await Promise.all(cases.map(async (c) => ({ c, ...(await runCase(c)) })));
    if (process.env['LOOP_DATASET_DUMP'])
      for (const { c, result, scores } of runs)
        console.log(
          c.id,
          result.terminationReason,
          scores.map((s) => `${s.scorer}=${s.value.toFixed(2)} ${s.why}`).join(' | '),
          '\n  steps:',
          result.chain.steps.map((s) => (s.type === 'tool_call' ? `call:${s.toolCall.toolName}` : s.type)).join(' '),
        );
    const failed = runs.flatMap(({ c, result, scores }) =>
      scores
        .filter((s) => !s.passed)
        .map(
          (s) =>
            `${c.id} (${result.terminationReason}): ${s.scorer}: ${s.why} | answer: ${result.finalAnswer.slice(0, 300)}`,
        ),
    );
    expect(failed).toEqual([]);
  });
});
