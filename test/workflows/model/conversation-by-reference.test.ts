import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { ModelCallHistoryError, modelCallsOfRun } from '../../../src/client/history/model-call-history';
import { runIdsOf } from '../../../src/client/runs/run-ids';
import {
  modelCallsFromInputs,
  textHash,
  type AssistantBlock,
  type ModelCallInput,
  type ToolSpec,
} from '../../../src/domain';
import { defineTool } from '../../../src/tools/define-tool';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const ITERATIONS = 6;
const OBSERVATION_CHARS = 10_000;
const page = defineTool({
  name: 'page',
  description: 'Returns page n',
  input: z.object({ n: z.number() }),
  execute: ({ n }) => `page ${n}: ${'x'.repeat(OBSERVATION_CHARS)}`,
});
const script = () =>
  createScriptedModel([
    ...Array.from({ length: ITERATIONS }, (_, i) => ({ content: [useTool('page', { n: i + 1 })] })),
    { content: [useTool('finish', { result: 'read' })] },
  ]);

/**
 * The `callModel` inputs a run's history scheduled, in order, each one's size in the history and
 * the reply's content it recorded; and its tools' results by text hash.
 */
async function modelCallInputs(workflowId: string): Promise<{
  calls: Array<{ input: ModelCallInput; bytes: number; reply?: AssistantBlock[]; described?: ToolSpec[] }>;
  texts: Map<string, string>;
}> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const texts = new Map<string, string>();
  const results = new Map<string, { result?: unknown; content?: AssistantBlock[]; describedTools?: ToolSpec[] }>();
  for (const e of history.events ?? []) {
    const done = e.activityTaskCompletedEventAttributes;
    const payload = done?.result?.payloads?.[0];
    if (!done || !payload) continue;
    const value = defaultPayloadConverter.fromPayload(payload) as {
      result?: unknown;
      content?: AssistantBlock[];
      describedTools?: ToolSpec[];
    };
    results.set(String(done.scheduledEventId), value);
    if (typeof value.result === 'string') texts.set(textHash(value.result), value.result);
  }
  const calls = (history.events ?? []).flatMap((e) => {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name !== 'callModel') return [];
    const payload = scheduled.input!.payloads![0]!;
    return [
      {
        input: defaultPayloadConverter.fromPayload(payload) as ModelCallInput,
        bytes: payload.data!.length,
        reply: results.get(String(e.eventId))?.content,
        described: results.get(String(e.eventId))?.describedTools,
      },
    ];
  });
  return { calls, texts };
}

async function runWith(conversationCacheBytes: number | undefined, continueAsNewEvery?: number) {
  const model = script();
  const h = await createHarness(env, {
    tools: [page],
    models: { scripted: model },
    ...(conversationCacheBytes !== undefined ? { conversationCacheBytes } : {}),
  });
  const { result, workflowId } = await h.worker.runUntil(async () => {
    const handle = await h.agents.start({
      task: 'Read the pages',
      model: SCRIPTED_MODEL,
      maxToolResultChars: 2 * OBSERVATION_CHARS,
      ...(continueAsNewEvery ? { continueAsNewEvery } : {}),
    });
    return { result: await handle.result(), workflowId: handle.workflowId };
  });
  model.verify();
  const { calls, texts } = await modelCallInputs(workflowId);
  return { model, result, inputs: calls, texts, workflowId };
}

describe('a model call records only what is new in the conversation', () => {
  it(
    'sends each call by reference, the model sees the whole conversation, and the history rebuilds every prompt',
    { timeout: 60_000 },
    async () => {
      const { model, result, inputs, texts, workflowId } = await runWith(undefined);
      expect(result).toMatchObject({ success: true, toolCalls: ITERATIONS });
      expect(inputs).toHaveLength(ITERATIONS + 1);
      // After the first, a call names the last reply (its worker kept it) and the new observation:
      // the history holds each reply and each observation once, as the activity's result, not again
      // in the next call, which adds only the message that carries the tool's result.
      expect(inputs[0]!.input).toMatchObject({ describeTools: {} });
      for (const [i, { input, bytes }] of inputs.entries()) {
        expect('conversation' in input).toBe(true);
        if (i === 0) continue;
        expect(input).toMatchObject({
          conversation: {
            parts: [{ from: 0, count: 2 * i }, { added: [{ role: 'user' }] }],
            known: [{ message: 2 * i, block: 0 }],
          },
        });
        // The system prompt went with the first call, which had its worker describe the registered
        // tools; that worker kept the prompt with every tool, and later calls name it.
        expect('system' in input || 'tools' in input).toBe(false);
        expect(input).toMatchObject({ context: (inputs[1]!.input as { context: string }).context });
        expect(bytes).toBeLessThan(1_000);
      }
      // The model got every message, growing by one observation a call.
      const sizes = model.calls.map((c) => JSON.stringify(c.messages).length);
      expect(sizes.at(-1)!).toBeGreaterThan(ITERATIONS * OBSERVATION_CHARS);
      // An auditor rebuilds each prompt from the history alone: exactly what the model received.
      const rebuilt = (replies: Array<AssistantBlock[] | undefined>) =>
        modelCallsFromInputs(
          inputs.map((x) => x.input),
          (hash) => texts.get(hash),
          undefined,
          replies,
          inputs.map((x) => x.described),
        ).map((r) => r.messages);
      expect(rebuilt(inputs.map((x) => x.reply))).toEqual(model.calls.map((c) => c.messages));
      // The replies it records are what the next calls build on: without them, nothing rebuilds.
      expect(() => rebuilt([])).toThrow(/no earlier call sent/);
      // So does the audit export, reading the history through the client.
      const { runId } = await env.client.workflow.getHandle(workflowId).describe();
      const audited = await modelCallsOfRun(env.client, workflowId, [runId], result.chain.steps);
      expect(audited.map((c) => c.request.messages)).toEqual(model.calls.map((c) => c.messages));
      // With the tools the first call described, and the whole context later calls name.
      expect(audited.map((c) => c.request.tools)).toEqual(model.calls.map((c) => c.tools));
      // A chain that does not pair with the history is refused, never matched up silently.
      const firstLlm = result.chain.steps.findIndex((s) => s.type === 'tool_call' && s.toolCall.toolType === 'llm');
      const short = result.chain.steps.filter((_, i) => i !== firstLlm);
      await expect(modelCallsOfRun(env.client, workflowId, [runId], short)).rejects.toThrow(ModelCallHistoryError);
    },
  );

  it(
    'after a handover, the first call builds on what the run before sent, the model sees it whole, and an auditor rebuilds every prompt',
    { timeout: 60_000 },
    async () => {
      const kept = await runWith(undefined);
      const handedOver = await runWith(undefined, 2);
      expect(handedOver.result).toMatchObject({ success: true, toolCalls: ITERATIONS, continuations: 3 });
      const withoutIds = (calls: typeof kept.model.calls) =>
        JSON.stringify(calls.map((c) => c.messages)).replace(/"(id|toolUseId)":"[^"]*"/g, '"$1":"…"');
      expect(withoutIds(handedOver.model.calls)).toEqual(withoutIds(kept.model.calls));
      // The last Temporal run's first call names the conversation the run before it last sent, with
      // its reply, and sends only the last observation's message, naming its page: a handover
      // records no conversation again.
      const first = handedOver.inputs[0]!.input as { conversation: { parts: unknown[]; known?: unknown[] } };
      expect(first.conversation.parts).toEqual([
        { from: 0, count: 2 * ITERATIONS },
        { added: [expect.objectContaining({ role: 'user' })] },
      ]);
      expect(first.conversation.known).toHaveLength(1);
      expect(handedOver.inputs[0]!.bytes).toBeLessThan(3_000);
      // An auditor still rebuilds every prompt, across the Temporal runs, from the history alone.
      const runIds = await runIdsOf(env.client, handedOver.workflowId);
      expect(runIds).toHaveLength(4);
      const audited = await modelCallsOfRun(env.client, handedOver.workflowId, runIds, handedOver.result.chain.steps);
      expect(audited.map((c) => c.request.messages)).toEqual(handedOver.model.calls.map((c) => c.messages));
    },
  );

  it(
    'a worker that kept nothing asks the run, and the model sees the same conversations',
    { timeout: 60_000 },
    async () => {
      const kept = await runWith(undefined);
      const asked = await runWith(0);
      expect(asked.result).toMatchObject({ success: true, toolCalls: ITERATIONS });
      // The same conversations, but for the ids each run's calls got.
      const withoutIds = (calls: typeof kept.model.calls) =>
        JSON.stringify(calls.map((c) => c.messages)).replace(/"(id|toolUseId)":"[^"]*"/g, '"$1":"…"');
      expect(withoutIds(asked.model.calls)).toEqual(withoutIds(kept.model.calls));
      expect(asked.model.calls).toHaveLength(ITERATIONS + 1);
      // So does a worker that kept nothing when a handover's first call builds on the run before.
      const askedAcross = await runWith(0, 2);
      expect(askedAcross.result).toMatchObject({ success: true, toolCalls: ITERATIONS, continuations: 3 });
      expect((askedAcross.inputs[0]!.input as { conversation: { parts: unknown[] } }).conversation.parts[0]).toEqual({
        from: 0,
        count: 2 * ITERATIONS,
      });
      expect(withoutIds(askedAcross.model.calls)).toEqual(withoutIds(kept.model.calls));
    },
  );
});
