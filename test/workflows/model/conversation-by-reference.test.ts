import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { modelCallsFromInputs, type ModelCallInput } from '../../../src/shared';
import { defineTool } from '../../../src/tools/define-tool';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const ITERATIONS = 6;
const OBSERVATION_CHARS = 10_000;
const page = defineTool({ name: 'page', description: 'Returns page n', input: z.object({ n: z.number() }), execute: ({ n }) => `page ${n}: ${'x'.repeat(OBSERVATION_CHARS)}` });
const script = () => createScriptedModel([...Array.from({ length: ITERATIONS }, (_, i) => ({ content: [useTool('page', { n: i + 1 })] })), { content: [useTool('finish', { result: 'read' })] }]);

/** The `callModel` inputs a run's history scheduled, in order, and each one's size in the history. */
async function modelCallInputs(workflowId: string): Promise<Array<{ input: ModelCallInput; bytes: number }>> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((e) => {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name !== 'callModel') return [];
    const payload = scheduled.input!.payloads![0]!;
    return [{ input: defaultPayloadConverter.fromPayload(payload) as ModelCallInput, bytes: payload.data!.length }];
  });
}

async function runWith(conversationCacheBytes: number | undefined) {
  const model = script();
  const h = await createHarness(env, { tools: [page], models: { scripted: model }, cacheWorkflows: true, ...(conversationCacheBytes !== undefined ? { conversationCacheBytes } : {}) });
  const { result, workflowId } = await h.worker.runUntil(async () => {
    const handle = await h.agents.start({ task: 'Read the pages', model: SCRIPTED_MODEL, maxToolResultChars: 2 * OBSERVATION_CHARS });
    return { result: await handle.result(), workflowId: handle.workflowId };
  });
  model.verify();
  return { model, result, inputs: await modelCallInputs(workflowId) };
}

describe('a model call records only what is new in the conversation', () => {
  it('sends each call by reference, the model sees the whole conversation, and the history rebuilds every prompt', { timeout: 60_000 }, async () => {
    const { model, result, inputs } = await runWith(undefined);
    expect(result).toMatchObject({ success: true, toolCalls: ITERATIONS });
    expect(inputs).toHaveLength(ITERATIONS + 1);
    // After the first, a call carries the last reply and the new observation, not the whole again.
    for (const [i, { input, bytes }] of inputs.entries()) {
      expect('conversation' in input).toBe(true);
      if (i === 0) continue;
      expect(input).toMatchObject({ conversation: { parts: [{ from: 0, count: 2 * i - 1 }, { added: [expect.anything(), expect.anything()] }] } });
      expect(bytes).toBeLessThan(2 * OBSERVATION_CHARS);
    }
    // The model got every message, growing by one observation a call.
    const sizes = model.calls.map((c) => JSON.stringify(c.messages).length);
    expect(sizes.at(-1)!).toBeGreaterThan(ITERATIONS * OBSERVATION_CHARS);
    // An auditor rebuilds each prompt from the history alone: exactly what the model received.
    expect(modelCallsFromInputs(inputs.map((x) => x.input)).map((r) => r.messages)).toEqual(model.calls.map((c) => c.messages));
  });

  it('a worker that kept nothing asks the run, and the model sees the same conversations', { timeout: 60_000 }, async () => {
    const kept = await runWith(undefined);
    const asked = await runWith(0);
    expect(asked.result).toMatchObject({ success: true, toolCalls: ITERATIONS });
    // The same conversations, but for the ids each run's calls got.
    const withoutIds = (calls: typeof kept.model.calls) => JSON.stringify(calls.map((c) => c.messages)).replace(/"(id|toolUseId)":"[^"]*"/g, '"$1":"…"');
    expect(withoutIds(asked.model.calls)).toEqual(withoutIds(kept.model.calls));
    expect(asked.model.calls).toHaveLength(ITERATIONS + 1);
  });
});

