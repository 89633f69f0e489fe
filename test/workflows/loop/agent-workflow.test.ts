import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../../src/activities/models/scripted-model';
import { CostAttribute, StatusAttribute, TokensAttribute } from '../../../src/domain';
import { stepTypesWithSources } from '../../helpers/chain-helpers';
import { recordedActivities } from '../../../src/client/history/recorded-activities';
import type { ModelCallResult } from '../../../src/domain/model/model-call-result';
import { scheduledActivities } from '../../helpers/history';
import { scriptedInput } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const env = useTestEnv();

describe('agentWorkflow on a real dev server', () => {
  it('runs several tools to finish, one activity per call, with the chain, usage and search attributes', async () => {
    const { tools, log } = testTools();
    const model = createScriptedModel([
      { content: [say('I need the value for alpha first.'), useTool('lookup', { key: 'alpha' })], costUsd: 0.001 },
      { content: [useTool('lookup', { key: 'be' })], costUsd: 0.002 },
      { content: [say('Both values known.'), useTool('finish', { result: 'alpha=50, be=20' })] },
    ]);
    const h = await createHarness(env, { tools, models: { scripted: model } });
    const result = await h.worker.runUntil(async () => {
      const handle = await h.agents.start(scriptedInput('Find alpha and be'));
      return handle.result();
    });
    model.verify();

    expect(result).toMatchObject({ success: true, terminationReason: 'success', finalAnswer: 'alpha=50, be=20' });
    expect(result).toMatchObject({ iterations: 3, modelCalls: 3, toolCalls: 2, costUsd: 0.003 });
    expect(result.usage).toEqual({ inputTokens: 300, outputTokens: 60, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(log.calls.map((c) => c.args)).toEqual([{ key: 'alpha' }, { key: 'be' }]);

    const steps = result.chain.steps;
    expect(stepTypesWithSources(steps)).toEqual([
      'tool_call:llm',
      'tool_result:llm',
      'thinking',
      'tool_call:external',
      'tool_result:tool',
      'tool_call:llm',
      'tool_result:llm',
      'tool_call:external',
      'tool_result:tool',
      'tool_call:llm',
      'tool_result:llm',
      'thinking',
      'tool_call:custom',
      'tool_result:tool',
      'synthesis',
    ]);
    const llmResult = steps[1]!;
    expect(llmResult).toMatchObject({
      model: 'scripted-model',
      usage: { inputTokens: 100, outputTokens: 20 },
      costUsd: 0.001,
    });
    const observations = steps.filter(
      (s) =>
        s.type === 'tool_result' && s.toolResult.success && !s.model && s.toolResult.correlationId.startsWith('toolu_'),
    );
    const synthesis = steps[steps.length - 1]!;
    expect(synthesis.type === 'synthesis' && synthesis.synthesis.sources).toEqual(
      expect.arrayContaining(observations.slice(0, 2).map((s) => s.stepId)),
    );

    // Tool results reach the model as tool_result blocks matched to its tool_use ids.
    const second = model.calls[1]!;
    const toolUse = model.calls[1]!.messages[1]!.content[1]!;
    expect(second.messages[2]).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: toolUse.type === 'tool_use' ? toolUse.id : '', isError: false }],
    });
    expect(second.tools.map((t) => t.name)).toEqual(['lookup', 'always_fails', 'big_result', 'finish', 'give_up']);

    // Each tool call is exactly one activity, labelled for the Web UI; model calls too.
    const workflowId = result.chain.chainId;
    const activities = await scheduledActivities(env.client, workflowId);
    // No lookup before the first model call: that call describes the registered tools itself.
    expect(activities.map((a) => a.type)).toEqual(['callModel', 'runTool', 'callModel', 'runTool', 'callModel']);
    expect(activities[1]!.summary).toBe('lookup {"key":"alpha"}');
    expect(activities[0]!.summary).toBe('scripted-model · iteration 1');
    expect(model.calls[0]!.tools.map((t) => t.name)).toEqual(second.tools.map((t) => t.name));
    const { runId } = await env.client.workflow.getHandle(workflowId).describe();
    const [first, next] = await recordedActivities(env.client, workflowId, runId, 'callModel');
    // The run names no tools: all the worker registered, described in the order it holds them.
    expect(first!.input).toMatchObject({ describeTools: {} });
    expect((first!.result as ModelCallResult).describedTools!.map((t) => t.name)).toEqual([
      'lookup',
      'always_fails',
      'big_result',
    ]);
    expect(next!.input).not.toHaveProperty('describeTools');
    expect(steps[1]!.type === 'tool_result' && steps[1]!.toolResult.result).toMatchObject({
      describedTools: ['lookup', 'always_fails', 'big_result'],
    });

    // Idempotency keys are workflow id + step id, distinct per call.
    const keys = log.calls.map((c) => c.context.idempotencyKey);
    expect(keys[0]).toBe(`${workflowId}:${steps[3]!.stepId}`);
    expect(new Set(keys).size).toBe(2);

    const description = await h.agents.getHandle(workflowId).describe();
    expect(description.typedSearchAttributes.get(StatusAttribute)).toBe('success');
    expect(description.typedSearchAttributes.get(TokensAttribute)).toBe(360);
    expect(description.typedSearchAttributes.get(CostAttribute)).toBeCloseTo(0.003);
    expect(await description.staticSummary()).toBe('Find alpha and be');
  });

  it('takes a reply without tool calls as the final answer', async () => {
    const model = createScriptedModel([{ content: [say('Paris is the capital of France.')] }]);
    const h = await createHarness(env, { tools: [], models: { scripted: model } });
    const result = await h.worker.runUntil(async () =>
      (await h.agents.start(scriptedInput('Capital of France?'))).result(),
    );
    model.verify();
    expect(result).toMatchObject({
      success: true,
      terminationReason: 'success',
      finalAnswer: 'Paris is the capital of France.',
      toolCalls: 0,
    });
    expect(result.chain.steps.map((s) => s.type)).toEqual(['tool_call', 'tool_result', 'synthesis']);
    expect(result.chain.status).toBe('completed');
    // The worker has stopped: a finished run's chain still comes back, from its result, in the default (developer) view.
    expect(await h.agents.chain(result.chain.chainId)).toEqual({
      ...result.chain,
      view: { role: 'developer', hiddenSteps: 0 },
    });
  });

  it('serves the chain query while the run is in flight', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const toolStarted = new Promise<void>((resolve) => (entered = resolve));
    const { tools } = testTools();
    const slow = { ...tools[0]!, name: 'slow', execute: async () => (entered(), await gate, 'late') };
    const model = createScriptedModel([
      { content: [say('Waiting on slow.'), useTool('slow', { key: 'k' })] },
      { content: [say('done')] },
    ]);
    const h = await createHarness(env, { tools: [slow], models: { scripted: model } });
    await h.worker.runUntil(async () => {
      const handle = await h.agents.start(scriptedInput('Use the slow tool'));
      await toolStarted;
      try {
        const live = await h.agents.chain(handle.workflowId);
        expect(live.status).toBe('tool_calling');
        expect(live.steps.map((s) => s.type)).toEqual(['tool_call', 'tool_result', 'thinking', 'tool_call']);
        // The Web UI's "Current Details" shows the chain so far as markdown.
        const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
        expect(metadata.currentDetails).toContain('**Action** `slow` `{"key":"k"}`');
        expect(metadata.currentDetails).toContain('Status: **tool_calling**');
        const status = await h.agents.status(handle.workflowId);
        expect(status).toMatchObject({ iteration: 1, steps: 4, status: 'tool_calling' });
      } finally {
        release();
      }
      const result = await handle.result();
      expect(result.finalAnswer).toBe('done');
      // After the run, the query still answers with the whole chain (it replays).
      expect((await h.agents.chain(handle.workflowId)).steps).toHaveLength(result.chain.steps.length);
    });
  });
});
