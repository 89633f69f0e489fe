import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../../src/activities/models/scripted-model';
import {
  chooseByComplexity,
  MAX_MODEL_CHOICES,
  MAX_ROUTED_CHARS,
  ModelChoice,
  ModelRegistry,
  ToolSpec,
  type Plan,
} from '../../../src/domain';
import { createLlmTool } from '../../../src/tools/builtin/llm';
import { InvalidToolDefinitionError } from '../../../src/tools/define-tool';
import { toToolSpec } from '../../../src/tools/tool-registry';
import { routeModel } from '../../../src/workflows/tools/route-model';

const strong: ModelChoice = {
  alias: 'strong',
  model: 'claude-sonnet-4-6',
  tier: 'high',
  price: { input: 3, output: 15 },
};
const balanced: ModelChoice = { alias: 'mid', model: 'mid-1', tier: 'medium', price: { input: 2, output: 8 } };
const fast: ModelChoice = { alias: 'fast', model: 'claude-haiku-4-5', tier: 'low', price: { input: 1, output: 5 } };
const dearFast: ModelChoice = { alias: 'dear', model: 'dear-1', tier: 'low', price: { input: 9, output: 9 } };
const choices = [strong, balanced, fast, dearFast] as const;

describe('chooseByComplexity: the cheapest model whose tier covers the task', () => {
  it('routes each complexity to the cheapest covering tier, the default otherwise, saying why', () => {
    expect(chooseByComplexity(choices, { id: 't1', complexity: 'low' }, true)).toEqual({
      alias: 'fast',
      reason: 'task t1 is low complexity: fast, the cheapest model of tier low or above',
    });
    expect(chooseByComplexity(choices, { id: 't2', complexity: 'medium' }, true).alias).toBe('mid');
    expect(chooseByComplexity(choices, { id: 't3', complexity: 'high' }, true).alias).toBe('strong');
    expect(chooseByComplexity(choices, { id: 't4' }, true)).toEqual({
      alias: 'strong',
      reason: 'task t4 has no complexity estimate: strong, the default model',
    });
    expect(chooseByComplexity(choices, undefined, true).reason).toBe(
      'no plan task is in progress: strong, the default model',
    );
    expect(chooseByComplexity(choices, { id: 't1', complexity: 'low' }, false).alias).toBe('strong');
    // Only low tiers on offer: a high task falls to the default, and says there is no model for it.
    expect(chooseByComplexity([fast, dearFast], { id: 't9', complexity: 'high' }, true)).toEqual({
      alias: 'fast',
      reason: 'task t9 is high complexity, and no model is of tier high or above: fast, the default model',
    });
  });

  it('never takes an unpriced or untiered model for cheaper, and keeps the reason bounded', () => {
    const unpriced: ModelChoice = { alias: 'free?', model: 'x', tier: 'low' };
    const untiered: ModelChoice = { alias: 'cheap', model: 'y', price: { input: 0, output: 0 } };
    expect(chooseByComplexity([strong, unpriced, untiered, fast], { id: 't', complexity: 'low' }, true).alias).toBe(
      'fast',
    );
    const long = chooseByComplexity(choices, { id: 'x'.repeat(10_000), complexity: 'low' }, true);
    expect(long.reason.length).toBeLessThanOrEqual(MAX_ROUTED_CHARS);
    expect(long.reason).toContain(`task ${'x'.repeat(64)} is low`);
  });
});

describe('routeModel: only a call to an llm tool with choices that named no model', () => {
  const spec = ToolSpec.parse({
    name: 'ask_model',
    type: 'llm',
    description: 'd',
    inputSchema: {},
    timeoutMs: 1,
    retry: { maximumAttempts: 1, initialIntervalMs: 1, backoffCoefficient: 1 },
    visibility: 'full',
    modelChoices: choices,
  });
  const plan = { tasks: [{ id: 't1', status: 'in_progress', complexity: 'low' }] } as unknown as Plan;

  it('fills in the model and the reason; leaves a named model, a consensus and an old spec alone', () => {
    expect(routeModel({ spec, args: { prompt: 'q' } }, plan, true)).toEqual({
      spec,
      args: { prompt: 'q', model: 'fast' },
      routed: 'task t1 is low complexity: fast, the cheapest model of tier low or above',
    });
    const named = { spec, args: { prompt: 'q', model: 'strong' } };
    expect(routeModel(named, plan, true)).toBe(named);
    const consensus = { spec, args: { prompt: 'q', models: ['strong', 'fast'], mode: 'consensus' } };
    expect(routeModel(consensus, plan, true)).toBe(consensus);
    const { modelChoices: _c, ...old } = spec;
    const recorded = { spec: old, args: { prompt: 'q' } };
    expect(routeModel(recorded, plan, true)).toBe(recorded);
  });

  it('of two tasks in progress, routes for the more demanding one', () => {
    const two = {
      tasks: [
        { id: 't1', status: 'in_progress', complexity: 'low' },
        { id: 't2', status: 'in_progress', complexity: 'medium' },
      ],
    } as unknown as Plan;
    expect(routeModel({ spec, args: { prompt: 'q' } }, two, true).args['model']).toBe('mid');
  });
});

describe("ask_model's listing of tiers and prices", () => {
  const registry = ModelRegistry.parse({
    models: {
      strong: { provider: 'anthropic', model: 'claude-sonnet-4-6', tier: 'high' },
      fast: { provider: 'anthropic', model: 'claude-haiku-4-5', tier: 'low', price: { input: 0.5, output: 2 } },
      local: { provider: 'scripted', model: 'llama3.1:8b' },
    },
  });
  const providers = { anthropic: createScriptedModel([]), scripted: createScriptedModel([]) };

  it('names each model with its tier and its price from the registry, else the built-in table, else unknown', () => {
    const tool = createLlmTool({ registry, providers });
    expect(tool.description).toContain(
      'Models: strong (claude-sonnet-4-6; tier high; $3/$15 per Mtok in/out), ' +
        'fast (claude-haiku-4-5; tier low; $0.5/$2 per Mtok in/out), local (llama3.1:8b; price unknown).',
    );
    expect(toToolSpec(tool).modelChoices).toEqual([
      { alias: 'strong', model: 'claude-sonnet-4-6', tier: 'high', price: { input: 3, output: 15 } },
      { alias: 'fast', model: 'claude-haiku-4-5', tier: 'low', price: { input: 0.5, output: 2 } },
      { alias: 'local', model: 'llama3.1:8b' },
    ]);
  });

  it(`refuses more than ${MAX_MODEL_CHOICES} models at definition`, () => {
    const many = ModelRegistry.parse({
      models: Object.fromEntries(
        Array.from({ length: MAX_MODEL_CHOICES + 1 }, (_, i) => [`m${i}`, { provider: 'scripted', model: `m-${i}` }]),
      ),
    });
    expect(() => createLlmTool({ registry: many, providers })).toThrow(InvalidToolDefinitionError);
    const most = Object.keys(many.models).slice(0, MAX_MODEL_CHOICES);
    expect(toToolSpec(createLlmTool({ registry: many, providers, models: most })).modelChoices).toHaveLength(
      MAX_MODEL_CHOICES,
    );
  });
});
