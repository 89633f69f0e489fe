import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import { defineScorer } from '../../../src/eval/define-scorer';
import { startFakeMessagesServer, text, type FakeMessagesServer } from '../../../src/testing';
import { scoringWorkflowId } from '../../../src/workflows/eval/evaluation-case-workflow';
import { useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';
import { evalHarness, evalModel, evaluation, historyText, variant } from './eval-harness';

const env = useTestEnv();

let server: FakeMessagesServer;
beforeEach(async () => {
  server = await startFakeMessagesServer();
});
afterEach(async () => {
  await server.close();
});

describe('evaluation scorers through the worker', () => {
  it("runs the evaluation's and each case's worker scorers and the judge once per run; the judge's prompt and reply stay in the case's history", async () => {
    const h = await evalHarness(env, {
      tools: testTools().tools,
      models: {
        scripted: evalModel(),
        anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test-key-0123456789', baseURL: server.baseUrl }),
      },
      scorers: [
        defineScorer({
          name: 'says_twenty',
          score: ({ facts }) => ({ value: facts.finalAnswer.includes('20'), why: 'checked' }),
        }),
        defineScorer({
          name: 'used_lookup',
          score: ({ facts }) => ({ value: facts.toolCalls.some((c) => c.tool === 'lookup'), why: 'checked' }),
        }),
      ],
    });
    server.append([text('{"score": 1, "why": "Coherent."}'), text('I think it was fine.')]);
    const input = evaluation({
      cases: [
        { id: 'with-lookup', task: 'lookup alpha', scorers: ['used_lookup'] },
        { id: 'direct', task: 'answer directly', scorers: ['used_lookup', 'says_twenty'] },
      ],
      variants: [variant('a')],
      concurrency: 1,
      scorers: ['says_twenty'],
      judge: { model: { provider: 'anthropic', model: 'claude-sonnet-4-6', maximumAttempts: 1 } },
    });
    const { workflowId, result } = await h.worker.runUntil(async () => {
      const started = await h.start(input);
      return { workflowId: started.workflowId, result: await started.result() };
    });
    server.verify();
    expect(result.judge).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-6' });
    const [withLookup, direct] = result.results;
    expect(withLookup!.scores.map((s) => [s.scorer, s.passed])).toEqual([
      ['termination_accuracy', true],
      ['coherence', true],
      ['says_twenty', true],
      ['used_lookup', true],
      ['judge', true],
    ]);
    expect(withLookup!.passed).toBe(true);
    expect(direct!.scores.map((s) => [s.scorer, s.passed])).toEqual([
      ['termination_accuracy', true],
      ['coherence', true],
      ['says_twenty', true],
      ['used_lookup', false],
      ['judge', false],
    ]);
    expect(direct!.scores.at(-1)!.why).toBe(`the judge's reply is not JSON: "I think it was fine."`);
    expect(direct!.passed).toBe(false);
    // The judge's exchange is recorded in the case workflow's history, not in the evaluation's.
    const caseHistory = await historyText(env.client, scoringWorkflowId(withLookup!.workflowId));
    expect(caseHistory).toContain('Coherent.');
    expect(caseHistory).toContain('Reasoning coherence');
    expect(await historyText(env.client, workflowId)).not.toContain('Reasoning coherence');
  });
});
