import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { defineTool } from '../../../src/tools/define-tool';
import { lastToolResults } from '../../helpers/approval-helpers';
import { callStep, resultStep } from '../../helpers/chain-helpers';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** A tool that works for `ms` and records how many of its calls were in flight at once. */
function concurrencyProbe() {
  let inFlight = 0;
  const seen = { peak: 0, order: [] as string[] };
  const tool = defineTool({
    name: 'slow_lookup',
    description: 'Looks a key up, slowly',
    input: z.object({ key: z.string(), ms: z.number() }),
    retry: { maximumAttempts: 1 },
    execute: async ({ key, ms }) => {
      inFlight += 1;
      seen.peak = Math.max(seen.peak, inFlight);
      await new Promise((r) => setTimeout(r, ms));
      inFlight -= 1;
      seen.order.push(key);
      return `${key}=ok`;
    },
  });
  return { tool, seen };
}

describe.concurrent('parallel tool calls', () => {
  it('runs one turn’s calls concurrently under the cap; results land as they finish and go back in the model’s order', async () => {
    const { tool, seen } = concurrencyProbe();
    const model = createScriptedModel([
      {
        content: [
          useTool('slow_lookup', { key: 'a', ms: 900 }, 'p_a'),
          useTool('slow_lookup', { key: 'b', ms: 100 }, 'p_b'),
          useTool('slow_lookup', { key: 'c', ms: 100 }, 'p_c'),
          useTool('nonexistent', {}, 'p_bad'),
        ],
      },
      { content: [useTool('finish', { result: 'done' })] },
    ]);
    const h = await createHarness(env, { tools: [tool], models: { scripted: model } });
    const result = await h.worker.runUntil(async () =>
      (
        await h.agents.start({
          task: 'Look up a, b and c',
          model: { provider: 'scripted', model: 'm' },
          maxParallelToolCalls: 2,
        })
      ).result(),
    );
    model.verify();

    expect(seen.peak).toBe(2);
    // b finished before a (which was slow) and c started only when a slot freed up.
    expect(seen.order).toEqual(['b', 'c', 'a']);
    // The three runnable calls share a group; the refused one is not part of it.
    const group = callStep(result.chain.steps, 'p_a')!.stepNumber;
    expect(['p_a', 'p_b', 'p_c'].map((id) => callStep(result.chain.steps, id)!.parallel)).toEqual(
      [1, 2, 3].map((index) => ({ group, index, size: 3 })),
    );
    expect(['p_a', 'p_b', 'p_c'].map((id) => resultStep(result.chain.steps, id)!.parallel?.group)).toEqual([
      group,
      group,
      group,
    ]);
    expect(callStep(result.chain.steps, 'p_bad')!.parallel).toBeUndefined();
    // Results in the chain in completion order, linked to their calls by correlation id.
    const resultOrder = result.chain.steps
      .filter((s) => s.type === 'tool_result' && s.parallel)
      .map((s) => (s.type === 'tool_result' ? s.toolResult.correlationId : ''));
    expect(resultOrder).toEqual(['p_b', 'p_c', 'p_a']);
    // One results message, in the model's order, with the refused call's error in place.
    const results = lastToolResults(model.calls[1]!.messages);
    expect(results.map((r) => r.toolUseId)).toEqual(['p_a', 'p_b', 'p_c', 'p_bad']);
    expect(results.map((r) => r.isError)).toEqual([false, false, false, true]);
  });
});
