import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { loopDatasetTools } from '../../src/eval/loop-dataset';
import { createEvalReplay } from '../../src/eval/replay';
import { createOfflineModel } from '../../src/offline/offline-model';
import {
  caseWorkflowId,
  factsOf,
  scoreCase,
  type EvalCase,
  type Score,
  type ScoringFacts,
} from '../../src/domain/evaluation';
import type { ModelProvider } from '../../src/domain/model/model-provider';
import type { AgentResult } from '../../src/domain';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { caseInput, DATASET, readDataset } from './loop-dataset';

const env = useTestEnv();
const cases = readDataset();
const evaluationId = `loop-gate-${Date.now()}`;

let h: AgentHarness;
let broken: AgentHarness;
let running: Promise<void>[] = [];
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
  });
  // A model that stopped giving its reasons: the loop refuses its calls (requireThought), as a
  // regression in thought handling would leave them.
  const offline = createOfflineModel();
  const thoughtless: ModelProvider = {
    name: 'thoughtless',
    complete: async (request, signal, hooks) => {
      const reply = await offline.complete(request, signal, hooks);
      const calls = reply.content.filter((b) => b.type === 'tool_use');
      return calls.length > 0 ? { ...reply, content: calls } : reply;
    },
  };
  broken = await createHarness(env, {
    tools: loopDatasetTools,
    models: { anthropic: thoughtless },
  });
  running = [h.worker.run(), broken.worker.run()];
});
afterAll(async () => {
  h?.worker.shutdown();
  broken?.worker.shutdown();
  await Promise.all(running);
});

interface CaseRun {
  c: EvalCase;
  result: AgentResult;
  facts: ScoringFacts;
  scores: Score[];
}

/** One case run as the evaluation runs it (the offline model for Claude, recordings replayed), and its scores. */
async function runCase(harness: AgentHarness, c: EvalCase, variant: string): Promise<CaseRun> {
  const agents = new AgentClient({ client: env.client, taskQueue: harness.taskQueue });
  const handle = await agents.start(caseInput(c) as never, { workflowId: caseWorkflowId(evaluationId, c, variant, 0) });
  const result = await handle.result();
  const facts = factsOf(result, { finish: 'finish', giveUp: 'give_up' });
  return { c, result, facts, scores: scoreCase(c.expect, facts) };
}

const failures = (runs: readonly CaseRun[]) =>
  runs.flatMap(({ c, result, scores }) =>
    scores
      .filter((s) => !s.passed)
      .map(
        (s) =>
          `${c.id} (${result.terminationReason}): ${s.scorer}: ${s.why} | answer: ${result.finalAnswer.slice(0, 300)}`,
      ),
  );

describe('eval/loop.jsonl on today’s loop (offline model, real dev server)', () => {
  let runs: CaseRun[] = [];

  it('passes every score of every case', { timeout: 240_000 }, async () => {
    runs = await Promise.all(cases.map((c) => runCase(h, c, 'offline')));
    if (process.env['LOOP_DATASET_DUMP'])
      for (const { c, result, scores } of runs)
        console.log(
          c.id,
          result.terminationReason,
          scores.map((s) => `${s.scorer}=${s.value.toFixed(2)} ${s.why}`).join(' | '),
          '\n  steps:',
          result.chain.steps.map((s) => (s.type === 'tool_call' ? `call:${s.toolCall.toolName}` : s.type)).join(' '),
        );
    expect(failures(runs)).toEqual([]);
  });

  it('draws its facts from real chains: which calls came with a thought, which failed', () => {
    const facts = (id: string) => runs.find((r) => r.c.id === id)!.facts;
    // The first call came without a thought and was refused; the second had one and ran.
    expect(facts('thought-required').toolCalls.map((c) => [c.withThought, c.success])).toEqual([
      [false, false],
      [true, true],
    ]);
    // Parallel calls of one turn share its thought.
    expect(facts('multi-tool-parallel').toolCalls.map((c) => c.withThought)).toEqual([true, true]);
    expect(facts('approval-timeout-rejects').toolCalls).toMatchObject([{ tool: 'transfer_funds', success: false }]);
    expect(facts('unknown-tool-recovers').toolCalls.map((c) => [c.tool, c.success])).toEqual([
      ['get_stock_price', false],
      ['calculator', true],
    ]);
    expect(facts('cost-budget').costUsd).toBeCloseTo(0.02);
  });

  it(
    'fails the cases a broken behaviour touches: a model whose thoughts went missing',
    { timeout: 240_000 },
    async () => {
      const offlineOnly = cases.filter((c) => !c.replay && c.id !== 'timeout' && c.id !== 'approval-timeout-rejects');
      const brokenRuns = await Promise.all(offlineOnly.map((c) => runCase(broken, c, 'thoughtless')));
      const failedCases = new Set(brokenRuns.filter((r) => r.scores.some((s) => !s.passed)).map((r) => r.c.id));
      expect([...failedCases]).toEqual(
        expect.arrayContaining(['calculator-multiply', 'multi-tool-parallel', 'planning']),
      );
      expect(failedCases.size).toBeGreaterThan(offlineOnly.length / 2);
    },
  );
});
