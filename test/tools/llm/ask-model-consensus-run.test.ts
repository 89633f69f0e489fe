import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { renderStep } from '../../../src/cli/render/render-step';
import { ModelRegistry, type ReasoningStep } from '../../../src/domain';
import { startFakeMessagesServer, text, type FakeRequestBody, type ScriptEntry } from '../../../src/testing';
import { createLlmTool } from '../../../src/tools/builtin/llm';
import { resultStepOfTool } from '../../helpers/chain-helpers';
import { suiteReplayOptions } from '../../helpers/replay-runtime';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** Three models, each on a provider of its own, so each answer's usage is its own. */
const registry = ModelRegistry.parse({
  models: {
    a: { provider: 'prov-a', model: 'a-1' },
    b: { provider: 'prov-b', model: 'b-1' },
    c: { provider: 'prov-c', model: 'c-1' },
    claude: { provider: 'anthropic', model: 'claude-haiku-4-5' },
  },
});

describe('ask_model consensus in a run on the dev server', () => {
  it("adds every model's tokens and cost to the run's ledger and shows each as its own llm step, and replays", async () => {
    const a = createScriptedModel([
      { content: [say('4')], usage: { inputTokens: 30, outputTokens: 5 }, costUsd: 0.001 },
    ]);
    const b = createScriptedModel([
      // Agreement reads what an answer says: "Four." agrees with "4" (it did not when text had to match).
      { content: [say('Four.')], usage: { inputTokens: 40, outputTokens: 6 }, costUsd: 0.002 },
    ]);
    const c = createScriptedModel([
      { content: [say('5')], usage: { inputTokens: 50, outputTokens: 7 }, costUsd: 0.003 },
    ]);
    const agent = createScriptedModel([
      {
        content: [
          useTool('ask_model', { models: ['a', 'b', 'c'], mode: 'consensus', prompt: 'What is 2+2?' }, 'toolu_vote'),
        ],
        costUsd: 0.01,
      },
      { content: (req) => [say(`Answer: ${JSON.stringify(req.messages.at(-1)?.content)}`)], costUsd: 0.01 },
    ]);
    const tool = createLlmTool({
      registry,
      providers: { 'prov-a': a, 'prov-b': b, 'prov-c': c },
      models: ['a', 'b', 'c'],
    });
    const h = await createHarness(env, { tools: [tool], models: { scripted: agent } });
    const result = await h.worker.runUntil(async () =>
      (await h.agents.start({ task: 'add', model: SCRIPTED_MODEL })).result(),
    );
    agent.verify();
    for (const m of [a, b, c]) m.verify();

    expect(result).toMatchObject({ success: true, terminationReason: 'success', modelCalls: 2, toolCalls: 1 });
    // Two agent replies (100 in / 20 out each, $0.01) plus the three answers.
    expect(result.usage).toMatchObject({ inputTokens: 320, outputTokens: 58 });
    expect(result.costUsd).toBeCloseTo(0.026, 9);
    // The agent read the agreement.
    expect(result.finalAnswer).toContain('agreement');

    // Under the tool call: one llm call step and one result step per model, with its own model, tokens and cost.
    const steps = result.chain.steps;
    const perModel = steps.filter(
      (s): s is Extract<ReasoningStep, { type: 'tool_result' }> =>
        s.type === 'tool_result' && s.toolResult.correlationId.startsWith('toolu_vote/'),
    );
    expect(perModel.map((s) => [s.model, s.usage?.inputTokens, s.costUsd, s.toolResult.result])).toEqual([
      ['a-1', 30, 0.001, '4'],
      ['b-1', 40, 0.002, 'Four.'],
      ['c-1', 50, 0.003, '5'],
    ]);
    const calls = steps.filter((s) => s.type === 'tool_call' && s.toolCall.correlationId.startsWith('toolu_vote/'));
    expect(calls.map((s) => s.type === 'tool_call' && [s.toolCall.toolType, s.model])).toEqual([
      ['llm', 'a-1'],
      ['llm', 'b-1'],
      ['llm', 'c-1'],
    ]);
    // The steps' spend adds up to the run's: nothing counted twice, nothing left out.
    const stepCost = steps.reduce((sum, s) => sum + (s.costUsd ?? 0), 0);
    expect(stepCost).toBeCloseTo(result.costUsd, 9);
    expect(renderStep(perModel[0]!)).toMatch(/a-1 · 30 in \/ 5 out · \$0\.0010/);
    const vote = steps.find(
      (s): s is Extract<ReasoningStep, { type: 'tool_result' }> =>
        s.type === 'tool_result' && s.toolResult.correlationId === 'toolu_vote',
    );
    expect(vote?.model).toBeUndefined();
    expect(vote?.toolResult).toMatchObject({
      success: true,
      result: {
        agreement: 2 / 3,
        unanimous: false,
        majority: '4',
        groups: [['a', 'b'], ['c']],
        groupedBy: ['number', 'number'],
      },
    });
    // The groups are shown, not the JSON.
    expect(renderStep(vote!)).toContain('agreement 2 of 3 · a, b: "4" (as a number) · c: "5" (as a number)');
    expect(vote!.stepNumber).toBeGreaterThan(perModel[2]!.stepNumber);

    const history = await env.client.workflow.getHandle(result.chain.chainId).fetchHistory();
    await expect(Worker.runReplayHistory(suiteReplayOptions(), history, result.chain.chainId)).resolves.toBeUndefined();
  }, 120_000);

  /**
   * Three prose answers the rules cannot compare, a consensusJudge served by the fake Messages
   * server over real HTTP; returns the run and the judge's prompts.
   */
  async function judgedConsensus(judgeReply: ScriptEntry) {
    const messages = await startFakeMessagesServer({ script: [judgeReply] });
    try {
      const a = createScriptedModel([{ content: [say('Paris is the capital of France.')], costUsd: 0.001 }]);
      const b = createScriptedModel([{ content: [say('The capital city is Paris.')], costUsd: 0.002 }]);
      const c = createScriptedModel([{ content: [say('Lyon is the capital of France.')], costUsd: 0.003 }]);
      const agent = createScriptedModel([
        {
          content: [
            useTool(
              'ask_model',
              { models: ['a', 'b', 'c'], mode: 'consensus', prompt: 'What is the capital of France?' },
              'toolu_vote',
            ),
          ],
        },
        { content: [say('Paris.')] },
      ]);
      const anthropic = createAnthropicProvider({ baseURL: messages.baseUrl, apiKey: 'sk-ant-test' });
      const tool = createLlmTool({
        registry,
        providers: { 'prov-a': a, 'prov-b': b, 'prov-c': c, anthropic },
        models: ['a', 'b', 'c'],
        consensusJudge: 'claude',
      });
      const h = await createHarness(env, { tools: [tool], models: { scripted: agent } });
      const result = await h.worker.runUntil(async () =>
        (await h.agents.start({ task: 'capital', model: SCRIPTED_MODEL })).result(),
      );
      agent.verify();
      messages.verify();
      const prompts = messages.requests.map((r) => JSON.stringify((r.body as FakeRequestBody).messages));
      const vote = result.chain.steps.find(
        (s): s is Extract<ReasoningStep, { type: 'tool_result' }> =>
          s.type === 'tool_result' && s.toolResult.correlationId === 'toolu_vote',
      )!;
      return { result, prompts, vote };
    } finally {
      await messages.close();
    }
  }

  it('a consensusJudge groups prose answers the rules leave apart: one paid, visible call, shown as grouped by the judge', async () => {
    const { result, prompts, vote } = await judgedConsensus(
      text('{"groups": [[1, 2], [3]]}', { usage: { input_tokens: 200, output_tokens: 12 } }),
    );
    // One call, with the three answers the rules could not compare.
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('1. Paris is the capital of France.');
    expect(prompts[0]).toContain('3. Lyon is the capital of France.');
    expect(vote.toolResult.result).toMatchObject({
      agreement: 2 / 3,
      majority: 'Paris is the capital of France.',
      groups: [['a', 'b'], ['c']],
      groupedBy: ['judge', 'judge'],
    });
    expect(renderStep(vote)).toContain(
      'agreement 2 of 3 · a, b: "Paris is the capital of France." (grouped by the judge) · c: "Lyon is the capital of France." (grouped by the judge)',
    );
    // The judge's call is its own llm step pair, its tokens and cost in the run's ledger.
    const judged = result.chain.steps.find(
      (s): s is Extract<ReasoningStep, { type: 'tool_result' }> =>
        s.type === 'tool_result' && s.toolResult.correlationId === 'toolu_vote/judge/claude',
    );
    expect(judged).toMatchObject({ model: 'claude-haiku-4-5', usage: { inputTokens: 200, outputTokens: 12 } });
    expect(judged?.toolResult.result).toBe('{"groups": [[1, 2], [3]]}');
    expect(judged!.costUsd).toBeGreaterThan(0);
    const stepCost = result.chain.steps.reduce((sum, s) => sum + (s.costUsd ?? 0), 0);
    expect(stepCost).toBeCloseTo(result.costUsd, 9);
  }, 120_000);

  it("a judge's unreadable grouping keeps the rules' groups, and the step says so", async () => {
    const { vote } = await judgedConsensus(text('{"groups": [[1, 2], [2, 3]]}'));
    expect(vote.toolResult.result).toMatchObject({
      agreement: 1 / 3,
      groups: [['a'], ['b'], ['c']],
      groupedBy: ['text', 'text', 'text'],
      judgeProblem: "the judge's reply names answer 2 twice; the rules' groups stand",
    });
    expect(renderStep(vote)).toContain("judge: the judge's reply names answer 2 twice; the rules' groups stand");
  }, 120_000);

  it('a sampling setting the anthropic provider refuses is a tool error the agent reads, tried once', async () => {
    const messages = await startFakeMessagesServer();
    try {
      const agent = createScriptedModel([
        { content: [useTool('ask_model', { model: 'claude', prompt: 'Pick one.', temperature: 1.5 }, 'toolu_t')] },
        { content: [say('Could not ask with a temperature.')] },
      ]);
      const anthropic = createAnthropicProvider({ baseURL: messages.baseUrl, apiKey: 'sk-ant-test' });
      const tool = createLlmTool({ registry, providers: { anthropic }, models: ['claude'] });
      const h = await createHarness(env, { tools: [tool], models: { scripted: agent } });
      const result = await h.worker.runUntil(async () =>
        (await h.agents.start({ task: 'pick', model: SCRIPTED_MODEL })).result(),
      );
      agent.verify();
      expect(result).toMatchObject({ success: true, terminationReason: 'success' });
      const step = resultStepOfTool(result.chain.steps, 'ask_model');
      expect(step?.toolResult).toMatchObject({ success: false, attempts: 1 });
      expect(step?.toolResult.error).toMatch(
        /Model "claude" does not take temperature: ask again without temperature, or pick another model/,
      );
      // The agent's next turn read it as the call's error.
      expect(JSON.stringify(agent.calls[1]?.messages.at(-1))).toContain('does not take temperature');
      expect(messages.requests).toHaveLength(0);
      messages.verify();
    } finally {
      await messages.close();
    }
  }, 120_000);
});
