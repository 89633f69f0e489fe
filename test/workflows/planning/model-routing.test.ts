import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, say, useTool, type ScriptedTurn } from '../../../src/activities/models/scripted-model';
import { renderStep } from '../../../src/cli/render/render-step';
import { ModelRegistry, renderChainMarkdown, type ModelRequest } from '../../../src/domain';
import { createLlmTool } from '../../../src/tools/builtin/llm';
import { callStep, resultStep } from '../../helpers/chain-helpers';
import { suiteReplayOptions } from '../../helpers/replay-runtime';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

/**
 * Issue 65, row 002 #19: ask_model lists each model's tier and price, and a call that leaves
 * `model` out is routed by the planner's complexity estimate of the task in progress: the
 * cheapest model whose tier covers it. The choice and its reason are on the call step, in the
 * terminal and in the markdown; `planning.routeModels: false` keeps the tool's default model.
 */
const env = useTestEnv();

/** The tool's default (first) model is the strong one; the fast one costs a third. */
const registry = ModelRegistry.parse({
  models: {
    strong: { provider: 'openai-compatible', model: 'strong-1', tier: 'high', price: { input: 3, output: 15 } },
    fast: { provider: 'openai-compatible', model: 'fast-1', tier: 'low', price: { input: 1, output: 5 } },
  },
});

const tasks = [
  { id: 't1', description: 'Add two numbers', dependencies: [], estimated_complexity: 'low' },
  { id: 't2', description: 'Prove the sum is right', dependencies: ['t1'], estimated_complexity: 'high' },
];
const update = (task_id: string, status: string, id: string) => useTool('update_task', { task_id, status }, id);
const ask = (id: string, prompt: string) => useTool('ask_model', { prompt }, id);
/** The agent plans two tasks, asks ask_model once in each (no model named, two questions), and finishes. */
const script: ScriptedTurn[] = [
  { content: [say(JSON.stringify({ tasks }))] },
  { content: [update('t1', 'in_progress', 'u1'), ask('a1', 'What is 2+2?')] },
  { content: [update('t1', 'completed', 'u2'), update('t2', 'in_progress', 'u3'), ask('a2', 'Is 2+2=4 right?')] },
  { content: [update('t2', 'completed', 'u4')] },
  { content: [useTool('finish', { result: '4' })] },
];

async function run(planning: Record<string, unknown>) {
  const answers = createScriptedModel([{ content: [say('4')] }, { content: [say('4, because 2+2=4')] }]);
  const tool = createLlmTool({ registry, providers: { 'openai-compatible': answers } });
  const { result, model, workflowId } = await runScripted(env, {
    script,
    tools: [tool],
    input: { task: 'What is 2+2, and is it right?', planning: { reflectEvery: 0, ...planning } },
  });
  answers.verify();
  return { result, workflowId, asked: answers.calls.map((c: ModelRequest) => c.model), agent: model };
}

describe.concurrent('ask_model routed by the plan task complexity', () => {
  it('sends a low task to the cheaper tier and a high one to the strong model, with the reason on the step', async () => {
    const { result, workflowId, asked, agent } = await run({});
    expect(result.terminationReason).toBe('success');
    expect(asked).toEqual(['fast-1', 'strong-1']);
    // The model reads each model's tier and price in the tool's description.
    const described = agent.calls[1]!.tools.find((t) => t.name === 'ask_model')?.description ?? '';
    expect(described).toContain('fast (fast-1; tier low; $1/$5 per Mtok in/out)');
    expect(described).toContain('strong (strong-1; tier high; $3/$15 per Mtok in/out)');

    const low = callStep(result.chain.steps, 'a1')!;
    expect(low.toolCall.arguments['model']).toBe('fast');
    expect(low.toolCall.routed).toBe('task t1 is low complexity: fast, the cheapest model of tier low or above');
    const high = callStep(result.chain.steps, 'a2')!;
    expect(high.toolCall.arguments['model']).toBe('strong');
    expect(high.toolCall.routed).toBe('task t2 is high complexity: strong, the cheapest model of tier high or above');
    expect(resultStep(result.chain.steps, 'a1')).toMatchObject({ model: 'fast-1' });
    // The terminal and the markdown say why.
    expect(renderStep(low)).toContain('routed: task t1 is low complexity');
    expect(renderChainMarkdown(result.chain)).toContain('routed: task t2 is high complexity');

    // Chosen in the workflow: no activity of its own, no patched(), and the history replays.
    const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
    const activities = (history.events ?? []).flatMap(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
    );
    expect(activities.filter((name) => name === 'runTool')).toHaveLength(2);
    expect((history.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toEqual(
      [],
    );
    await expect(Worker.runReplayHistory(suiteReplayOptions(), history, workflowId)).resolves.toBeUndefined();
  });

  it('with planning.routeModels false, a call without a model goes to the tool default and says so', async () => {
    const { result, asked } = await run({ routeModels: false });
    expect(result.terminationReason).toBe('success');
    expect(asked).toEqual(['strong-1', 'strong-1']);
    expect(callStep(result.chain.steps, 'a1')!.toolCall.routed).toBe(
      'routing is off (planning.routeModels: false): strong, the default model',
    );
  });
});
