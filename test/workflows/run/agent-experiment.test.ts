import { describe, expect, it } from 'vitest';
import { say, useTool } from '../../../src/activities/models/scripted-model';
import { defineAgent } from '../../../src/agents/define-agent';
import { ExperimentAttribute, VariantAttribute } from '../../../src/domain';
import { assignVariant } from '../../../src/domain/agents/agent-experiment';
import { readRunInput } from '../../../src/client/runs/read-run-input';
import { scheduledActivities } from '../../helpers/history';
import { runScripted } from '../../helpers/run-scripted';
import { useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();

const lookups = defineAgent({
  id: 'lookups',
  description: 'Looks values up.',
  version: '2.0.0',
  systemPrompt: 'Base prompt.',
  tools: ['lookup', 'always_fails'],
  budget: { tokenBudget: 50_000 },
  experiment: {
    name: 'tools-and-budget',
    assignBy: 'caller',
    variants: [
      { name: 'base', weight: 1 },
      {
        name: 'narrow',
        weight: 1,
        systemPrompt: 'Narrow prompt.',
        tools: ['lookup'],
        budget: { costBudgetUsd: 5 },
        model: { model: 'scripted-narrow' },
      },
    ],
  },
});

/** The first caller id the hash puts in `variant`. */
function callerIn(variant: string): string {
  for (let i = 0; ; i++) if (assignVariant(lookups.experiment!, `user-${i}`).name === variant) return `user-${i}`;
}

describe('a run of an agent with an experiment', () => {
  it("follows its variant's prompt, tools, budget and model, through continue-as-new", async () => {
    const caller = { id: callerIn('narrow'), roles: [] };
    const { result, workflowId, model } = await runScripted(env, {
      agents: [lookups],
      input: { task: 'Find alpha and beta', agent: 'lookups', caller, continueAsNewEvery: 1 },
      script: [
        { content: [useTool('lookup', { key: 'alpha' })] },
        { content: [useTool('lookup', { key: 'beta' })] },
        { content: [say('Done.'), useTool('finish', { result: 'alpha=50, beta=40' })] },
      ],
    });
    expect(result).toMatchObject({ success: true, continuations: 2 });
    expect(result.agent?.experiment).toEqual({ name: 'tools-and-budget', variant: 'narrow', by: 'caller' });
    for (const call of model.calls) {
      expect(call.system.startsWith('Narrow prompt.')).toBe(true);
      expect(call.model).toBe('scripted-narrow');
      // The variant's tools only: always_fails is the base's.
      expect(call.tools.map((t) => t.name)).toEqual(['lookup', 'finish', 'give_up']);
    }
    // Still on the run after its handovers.
    const attributes = (await env.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes;
    expect(attributes.get(ExperimentAttribute)).toBe('tools-and-budget');
    expect(attributes.get(VariantAttribute)).toBe('narrow');
    const activities = (await scheduledActivities(env.client, workflowId)).map((a) => a.type);
    expect(activities.filter((a) => a === 'describeAgent' || a === 'describeTools')).toEqual([]);
    // The latest Temporal run started from the carried input: the variant's parts, its budget over the agent's.
    const carried = await readRunInput(env.client, workflowId);
    expect(carried).toMatchObject({ tokenBudget: 50_000, costBudgetUsd: 5, tools: ['lookup'] });
    expect((carried.model as { model: string }).model).toBe('scripted-narrow');
  });

  it("keeps the definition's parts for the variant that overrides none", async () => {
    const caller = { id: callerIn('base'), roles: [] };
    const { result, model } = await runScripted(env, {
      agents: [lookups],
      input: { task: 'Find alpha', agent: 'lookups', caller },
      script: [{ content: [say('Done.'), useTool('finish', { result: 'alpha=50' })] }],
    });
    expect(result.agent?.experiment).toEqual({ name: 'tools-and-budget', variant: 'base', by: 'caller' });
    expect(model.calls[0]!.system.startsWith('Base prompt.')).toBe(true);
    expect(model.calls[0]!.model).toBe('scripted-model');
    expect(model.calls[0]!.tools.map((t) => t.name)).toEqual(['lookup', 'always_fails', 'finish', 'give_up']);
  });

  it("refuses, as a visible error, a variant whose model the run's allowedModels leave out", async () => {
    const caller = { id: callerIn('narrow'), roles: [] };
    const { result } = await runScripted(env, {
      agents: [lookups],
      input: { task: 'Find alpha', agent: 'lookups', caller, allowedModels: ['scripted-model'] },
      script: [],
    });
    expect(result).toMatchObject({
      terminationReason: 'error',
      error: "model scripted/scripted-narrow is not in this run's allowedModels (scripted-model).",
    });
    expect(result.agent?.experiment?.variant).toBe('narrow');
  });

  it('assigns an inline definition the same way, recorded with source inline', async () => {
    const caller = { id: callerIn('narrow'), roles: [] };
    const { result, workflowId } = await runScripted(env, {
      input: { task: 'Find alpha', definition: lookups, caller },
      script: [{ content: [say('Done.'), useTool('finish', { result: 'alpha=50' })] }],
    });
    expect(result.agent).toEqual({
      id: 'lookups',
      version: '2.0.0',
      source: 'inline',
      experiment: { name: 'tools-and-budget', variant: 'narrow', by: 'caller' },
    });
    const ended = await env.client.workflow.getHandle(workflowId).describe();
    expect(ended.typedSearchAttributes.get(VariantAttribute)).toBe('narrow');
  });
});
