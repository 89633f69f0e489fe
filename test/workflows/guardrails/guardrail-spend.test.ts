import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { useTool } from '../../../src/activities/models/scripted-model';
import { defineGuardrail } from '../../../src/guardrails/define-guardrail';
import { defineTool } from '../../../src/tools/define-tool';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

/** An LLM judge stand-in: it reports what its own model call cost, as a real one would. */
const judge = defineGuardrail({
  name: 'judge',
  stage: 'tool_result',
  check: () => ({
    verdict: 'pass',
    spend: { model: 'judge-mini', inputTokens: 1_000, outputTokens: 10, costUsd: 0.5 },
  }),
});
const careless = defineGuardrail({
  name: 'careless',
  stage: 'tool_result',
  check: () => ({ verdict: 'pass', spend: { costUsd: -1 } }),
});
const page = defineTool({
  name: 'fetch_page',
  description: 'Reads a web page',
  input: z.object({ url: z.string() }),
  execute: () => 'Paris: light rain, 14°C.',
});

describe("a guardrail's own model calls", () => {
  it('count in the run’s tokens, cost and budget, and show on its step', async () => {
    const { result, model } = await runScripted(env, {
      input: { task: 'Weather in Paris?', tools: ['fetch_page'], guardrails: ['judge'], costBudgetUsd: 0.4 },
      tools: [page],
      guardrails: [judge],
      script: [
        // No second turn: the budget stops the run before it.
        { content: [useTool('fetch_page', { url: 'https://weather.example/paris' }, 'toolu_p1')] },
      ],
    });
    // The judge's $0.50 crossed the $0.40 budget: the next model call was never made.
    expect(result).toMatchObject({ success: false, terminationReason: 'cost_budget' });
    expect(model.calls).toHaveLength(1);
    expect(result.costUsd).toBeGreaterThanOrEqual(0.5);
    expect(result.usage.inputTokens).toBeGreaterThanOrEqual(1_000);
    const checked = result.chain.steps.find(
      (s) => s.type === 'tool_result' && typeof s.toolResult.result === 'object' && s.model === 'judge-mini',
    );
    expect(checked).toMatchObject({
      costUsd: 0.5,
      usage: { inputTokens: 1_000, outputTokens: 10 },
      toolResult: { success: true, result: { verdict: 'pass' } },
    });
  });

  it('a spend that cannot be read makes the verdict unreadable: the result is withheld (fails closed)', async () => {
    const { result, model } = await runScripted(env, {
      input: { task: 'Weather in Paris?', tools: ['fetch_page'], guardrails: ['careless'] },
      tools: [page],
      guardrails: [careless],
      script: [
        { content: [useTool('fetch_page', { url: 'https://weather.example/paris' }, 'toolu_p2')] },
        { content: [useTool('finish', { result: 'I could not read it.' })] },
      ],
    });
    expect(result.success).toBe(true);
    expect(JSON.stringify(model.calls[1])).toContain(
      'Withheld: guardrail \\"careless\\" blocked it: guardrail \\"careless\\" returned a verdict that cannot be read',
    );
  });
});
