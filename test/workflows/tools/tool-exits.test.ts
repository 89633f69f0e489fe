import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel } from '../../../src/activities/models/scripted-model';
import { defineTool } from '../../../src/tools/define-tool';
import { toolResults } from '../../helpers/chain-helpers';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** Key-shaped values built at run time, so no literal token sits in the source. */
const fake = (prefix: string, length: number): string =>
  prefix + Array.from({ length }, (_, i) => 'aB3xY9kQ7mZ2'[i % 12]).join('');

/** Issue 14, classes 5 and 7, on a real worker and server: what leaves `runTool` after `execute`. */
describe('tool exits on the dev server', () => {
  it('a result nested 2,000 deep fails the call once, non-retryably, and the tool is not run again', async () => {
    let runs = 0;
    const deep = defineTool({
      name: 'deep_result',
      description: 'Returns a deeply nested value (and counts its side effects)',
      input: z.object({}),
      retry: { maximumAttempts: 3, initialIntervalMs: 10, backoffCoefficient: 1 },
      execute: () => {
        runs += 1;
        let value: unknown = 'leaf';
        for (let i = 0; i < 2_000; i += 1) value = { a: value };
        return value;
      },
    });
    const model = createScriptedModel([
      { content: [{ type: 'tool_use', id: 'toolu_deep', name: 'deep_result', input: {} }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const h = await createHarness(env, { tools: [deep], models: { scripted: model } });
    const result = await h.worker.runUntil(async () =>
      (await h.agents.start({ task: 'deep', model: { provider: 'scripted', model: 'm' } })).result(),
    );
    expect(runs).toBe(1);
    const [observation] = toolResults(result.chain.steps);
    expect(observation).toMatchObject({
      success: false,
      error: expect.stringContaining('its result could not be used'),
    });
    expect(result).toMatchObject({ success: true, finalAnswer: 'done' });
  });

  it("an ApplicationFailure's message and details reach neither the chain nor the history", async () => {
    const key = fake('sk-ant-api03-', 60);
    const token = fake('', 40);
    const failing = defineTool({
      name: 'leaky_failure',
      description: 'Throws an ApplicationFailure quoting credentials',
      input: z.object({}),
      retry: { maximumAttempts: 1 },
      execute: () => {
        throw ApplicationFailure.create({ message: `key ${key} refused`, details: [{ token }], nonRetryable: true });
      },
    });
    const model = createScriptedModel([
      { content: [{ type: 'tool_use', id: 'toolu_leak', name: 'leaky_failure', input: {} }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const h = await createHarness(env, { tools: [failing], models: { scripted: model } });
    const result = await h.worker.runUntil(async () =>
      (await h.agents.start({ task: 'leak', model: { provider: 'scripted', model: 'm' } })).result(),
    );
    const [observation] = toolResults(result.chain.steps);
    expect(observation).toMatchObject({ success: false, error: expect.stringContaining('[REDACTED]') });
    // Every string and every payload's bytes (as UTF-8) of the run's history.
    const history = await env.client.workflow.getHandle(result.chain.chainId).fetchHistory();
    const texts: string[] = [];
    const walk = (node: unknown): void => {
      if (node instanceof Uint8Array) texts.push(Buffer.from(node).toString('utf8'));
      else if (typeof node === 'string') texts.push(node);
      else if (node !== null && typeof node === 'object') for (const v of Object.values(node)) walk(v);
    };
    walk(history);
    const all = texts.join('\n');
    for (const secret of [key, token, 'sk-ant-api03']) {
      expect(JSON.stringify(result)).not.toContain(secret);
      expect(all).not.toContain(secret);
    }
    // Controls: the failure and its details are in what was searched, redacted.
    expect(all).toContain('key [REDACTED] refused');
    expect(all).toContain('{"token":"[REDACTED]"}');
  });
});
