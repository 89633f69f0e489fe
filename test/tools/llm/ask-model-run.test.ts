import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { renderStep } from '../../../src/cli/render/render-step';
import { modelCallsOfRun } from '../../../src/client/history/model-call-history';
import { ModelRegistry, renderChainMarkdown } from '../../../src/domain';
import { createLlmTool } from '../../../src/tools/builtin/llm';
import { callStepOfTool, resultStepOfTool } from '../../helpers/chain-helpers';
import { suiteReplayOptions } from '../../helpers/replay-runtime';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** A second provider answers ask_model: the registry's `fast` model lives on it, apart from the agent's own. */
const registry = ModelRegistry.parse({ models: { fast: { provider: 'openai-compatible', model: 'fast-1' } } });

describe('ask_model in a run on the dev server', () => {
  it('counts the sub-call into the run ledger, records an llm step with model, tokens and cost, and replays', async () => {
    const fast = createScriptedModel([
      { content: [say('4')], usage: { inputTokens: 30, outputTokens: 5 }, costUsd: 0.002 },
    ]);
    const agent = createScriptedModel([
      { content: [useTool('ask_model', { model: 'fast', prompt: 'What is 2+2?' }, 'toolu_ask')], costUsd: 0.01 },
      { content: (req) => [say(`The answer is ${JSON.stringify(req.messages.at(-1)?.content)}`)], costUsd: 0.01 },
    ]);
    const tool = createLlmTool({ registry, providers: { 'openai-compatible': fast } });
    const h = await createHarness(env, { tools: [tool], models: { scripted: agent } });
    const result = await h.worker.runUntil(async () =>
      (await h.agents.start({ task: 'add', model: SCRIPTED_MODEL })).result(),
    );
    agent.verify();
    fast.verify();

    expect(result).toMatchObject({ success: true, terminationReason: 'success', modelCalls: 2, toolCalls: 1 });
    expect(result.finalAnswer).toContain('4');
    // Two agent replies (100 in / 20 out each, $0.01) plus the sub-call (30 in / 5 out, $0.002).
    expect(result.usage).toMatchObject({ inputTokens: 230, outputTokens: 45 });
    expect(result.costUsd).toBeCloseTo(0.022, 9);
    expect(fast.calls[0]).toMatchObject({
      model: 'fast-1',
      tools: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is 2+2?' }] }],
    });

    expect(callStepOfTool(result.chain.steps, 'ask_model')?.toolCall.toolType).toBe('llm');
    const step = resultStepOfTool(result.chain.steps, 'ask_model');
    expect(step).toMatchObject({
      model: 'fast-1',
      usage: { inputTokens: 30, outputTokens: 5 },
      costUsd: 0.002,
      toolResult: { success: true, result: '4' },
    });
    // The terminal and the markdown viewer name the model and show its tokens and cost.
    expect(renderStep(step!)).toMatch(/fast-1 · 30 in \/ 5 out · \$0\.0020/);
    expect(renderChainMarkdown(result.chain)).toMatch(/\*\*Model answer\*\* `fast-1` 30→5 tokens \$0\.0020/);

    // The run's own model calls are rebuilt from the history (audit, fork); ask_model's call is not one of them.
    const { runId } = await env.client.workflow.getHandle(result.chain.chainId).describe();
    const rebuilt = await modelCallsOfRun(env.client, result.chain.chainId, [runId], result.chain.steps);
    expect(rebuilt.map((c) => c.request.model)).toEqual(['scripted-model', 'scripted-model']);

    const history = await env.client.workflow.getHandle(result.chain.chainId).fetchHistory();
    // One code path: nothing asks patched().
    expect((history.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toEqual(
      [],
    );
    await expect(Worker.runReplayHistory(suiteReplayOptions(), history, result.chain.chainId)).resolves.toBeUndefined();
  }, 120_000);

  it('a budget that cannot afford the sub-call records it as not run and stops the run as a budget stop', async () => {
    const fast = createScriptedModel([]);
    const agent = createScriptedModel([
      {
        content: [useTool('ask_model', { model: 'fast', prompt: 'What is 2+2?' }, 'toolu_ask')],
        usage: { inputTokens: 2_800, outputTokens: 100 },
      },
    ]);
    const tool = createLlmTool({ registry, providers: { 'openai-compatible': fast } });
    const h = await createHarness(env, { tools: [tool], models: { scripted: agent } });
    const result = await h.worker.runUntil(async () =>
      (await h.agents.start({ task: 'add', model: SCRIPTED_MODEL, tokenBudget: 3_000 })).result(),
    );
    agent.verify();
    // The answering model is never called.
    expect(fast.calls).toEqual([]);
    expect(result).toMatchObject({ success: false, terminationReason: 'token_budget', modelCalls: 1 });
    expect(result.usage).toMatchObject({ inputTokens: 2_800, outputTokens: 100 });
    expect(resultStepOfTool(result.chain.steps, 'ask_model')?.toolResult).toMatchObject({
      success: false,
      outcome: 'not_run',
      error: expect.stringContaining('Not run: Token budget'),
    });
  }, 120_000);
});
