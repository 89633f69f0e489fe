import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../../src/activities/models/scripted-model';
import { ModelRegistry } from '../../../src/domain';
import { createLlmTool } from '../../../src/tools/builtin/llm';
import { samplingOf } from '../../../src/tools/builtin/llm/ask-one';
import { toolInputSchema } from '../../../src/tools/tool-registry';

const names = ['a', 'b', 'c', 'd', 'e', 'f'] as const;
const registry = ModelRegistry.parse({
  models: Object.fromEntries(names.map((n) => [n, { provider: 'scripted', model: `${n}-1` }])),
});
const tool = createLlmTool({ registry, providers: { scripted: createScriptedModel([]) } });

/** The schema's first error message, or undefined when the input passes. */
function refusal(input: unknown): string | undefined {
  const parsed = tool.input.safeParse(input);
  return parsed.success ? undefined : parsed.error.issues.map((i) => i.message).join('; ');
}

describe('ask_model input: one model, or a consensus of 2–5', () => {
  it('takes `model`, or `models` with mode "consensus", or neither (the run then routes the call)', () => {
    expect(refusal({ model: 'a', prompt: 'q' })).toBeUndefined();
    expect(refusal({ prompt: 'q' })).toBeUndefined();
    expect(refusal({ models: ['a', 'b'], mode: 'consensus', prompt: 'q' })).toBeUndefined();
    expect(refusal({ models: ['a', 'b', 'c', 'd', 'e'], mode: 'consensus', prompt: 'q' })).toBeUndefined();
  });

  it('refuses one model in a consensus, duplicates, unknown names and more than five, saying why', () => {
    expect(refusal({ models: ['a'], mode: 'consensus', prompt: 'q' })).toMatch(/at least 2 models/);
    expect(refusal({ models: ['a', 'a'], mode: 'consensus', prompt: 'q' })).toMatch(/"a" is named twice/);
    expect(refusal({ models: ['a', 'gpt-5'], mode: 'consensus', prompt: 'q' })).toMatch(/"a"\|"b"/);
    expect(refusal({ models: ['a', 'b', 'c', 'd', 'e', 'f'], mode: 'consensus', prompt: 'q' })).toMatch(
      /at most 5 models/,
    );
  });

  it('refuses a mixed or half form with the fix in the message', () => {
    expect(refusal({ model: 'a', models: ['a', 'b'], mode: 'consensus', prompt: 'q' })).toMatch(/not both/);
    expect(refusal({ models: ['a', 'b'], prompt: 'q' })).toMatch(/set mode: "consensus"/);
    expect(refusal({ model: 'a', mode: 'consensus', prompt: 'q' })).toMatch(/needs `models`/);
    expect(refusal({ models: ['a', 'b'], mode: 'vote', prompt: 'q' })).toBeDefined();
  });

  it('is an object schema the model APIs take, with consensus offered only when two models can be picked', () => {
    const properties = (t: typeof tool) => {
      const schema = toolInputSchema(t.input) as { type: string; properties: Record<string, { maxItems?: number }> };
      expect(schema.type).toBe('object');
      return schema.properties;
    };
    expect(properties(tool)['models']?.maxItems).toBe(5);
    const one = createLlmTool({ registry, providers: { scripted: createScriptedModel([]) }, models: ['a'] });
    expect(Object.keys(properties(one))).not.toContain('models');
    expect(one.input.safeParse({ model: 'a', prompt: 'q' }).success).toBe(true);
    const two = createLlmTool({ registry, providers: { scripted: createScriptedModel([]) }, models: ['a', 'b'] });
    expect(properties(two)['models']?.maxItems).toBe(2);
  });

  it("takes the sampling settings within SamplingSettings' bounds", () => {
    expect(refusal({ model: 'a', prompt: 'q', temperature: 0, topP: 1, topK: 40, seed: 7 })).toBeUndefined();
    expect(refusal({ model: 'a', prompt: 'q', temperature: 2.1 })).toBeDefined();
    expect(refusal({ model: 'a', prompt: 'q', topP: 0 })).toBeDefined();
    expect(refusal({ model: 'a', prompt: 'q', topK: 1.5 })).toBeDefined();
    expect(refusal({ model: 'a', prompt: 'q', seed: -1 })).toBeDefined();
  });

  it("sends sampling only when set, the call's values over a registry entry's own", () => {
    const target = { provider: 'scripted', model: 'a-1', fallbacks: [] };
    expect(samplingOf(target, { model: 'a', prompt: 'q' })).toBeUndefined();
    expect(samplingOf(target, { model: 'a', prompt: 'q', seed: 3 })).toEqual({ seed: 3 });
    // A registry entry that carries `sampling` (read through a guard, whatever the entry's type says).
    const sampled = { ...target, sampling: { temperature: 0.2, topP: 0.9 } };
    expect(samplingOf(sampled, { model: 'a', prompt: 'q' })).toEqual({ temperature: 0.2, topP: 0.9 });
    expect(samplingOf(sampled, { model: 'a', prompt: 'q', temperature: 1 })).toEqual({ temperature: 1, topP: 0.9 });
  });
});
