import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { defineTool, InvalidToolDefinitionError, MAX_LOCAL_TIMEOUT_MS } from '../../../src/tools/define-tool';
import { toToolSpec } from '../../../src/tools/tool-registry';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

describe('a tool marked local runs as a local activity', () => {
  it(
    'runs inside the workflow task (a marker, no activity task), is retried there, and its result is the observation',
    { timeout: 60_000 },
    async () => {
      let attempts = 0;
      const add = defineTool({
        name: 'add',
        description: 'Adds two numbers',
        input: z.object({ a: z.number(), b: z.number() }),
        local: true,
        retry: { maximumAttempts: 3, initialIntervalMs: 10, backoffCoefficient: 1 },
        execute: ({ a, b }) => {
          attempts += 1;
          // The first attempt fails: the worker retries a local activity itself.
          if (attempts === 1) throw new Error('flaky once');
          return a + b;
        },
      });
      const model = createScriptedModel([
        { content: [useTool('add', { a: 2, b: 3 })] },
        { content: [useTool('finish', { result: '5' })] },
      ]);
      const h = await createHarness(env, { tools: [add], models: { scripted: model } });
      const { result, workflowId } = await h.worker.runUntil(async () => {
        const handle = await h.agents.start({ task: 'Add 2 and 3', model: SCRIPTED_MODEL });
        return { result: await handle.result(), workflowId: handle.workflowId };
      });
      model.verify();
      expect(result).toMatchObject({ success: true, finalAnswer: '5', toolCalls: 1 });
      expect(attempts).toBe(2);
      const observed = result.chain.steps.find((s) => s.type === 'tool_result' && s.model === undefined);
      expect(observed).toMatchObject({ toolResult: { success: true, result: 5 } });
      // The model saw the sum as the tool's result.
      expect(JSON.stringify(model.calls[1]!.messages)).toContain('"content":"5"');

      const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
      const scheduled = (history.events ?? []).flatMap((e) =>
        e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name] : [],
      );
      expect(scheduled).not.toContain('runTool');
      expect(scheduled).toContain('callModel');
      const markers = (history.events ?? []).flatMap((e) =>
        e.markerRecordedEventAttributes ? [e.markerRecordedEventAttributes.markerName] : [],
      );
      expect(markers).toContain('core_local_activity');
    },
  );

  it('is refused at definition when its time limit is longer than a local activity should take', () => {
    const define = (timeoutMs: number) =>
      defineTool({
        name: 'slow',
        description: 'Slow',
        input: z.object({}),
        local: true,
        timeoutMs,
        execute: () => 'ok',
      });
    expect(() => define(MAX_LOCAL_TIMEOUT_MS + 1)).toThrow(InvalidToolDefinitionError);
    expect(() => define(MAX_LOCAL_TIMEOUT_MS + 1)).toThrow(/a local tool must finish within 10000 ms/);
    expect(toToolSpec(define(MAX_LOCAL_TIMEOUT_MS))).toMatchObject({ local: true, timeoutMs: MAX_LOCAL_TIMEOUT_MS });
    // Ordinary tools say nothing of it, so their specs (and recorded histories) are unchanged.
    expect(
      toToolSpec(defineTool({ name: 'plain', description: 'Plain', input: z.object({}), execute: () => 'ok' })),
    ).not.toHaveProperty('local');
  });
});
