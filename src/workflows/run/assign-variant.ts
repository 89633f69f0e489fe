import { workflowInfo } from '@temporalio/workflow';
import type { AgentInput, ModelSettings } from '../../domain';
import type { AgentDefinition } from '../../domain/agents/agent-definition';
import { assignVariant, experimentKeyOf, type ExperimentRef } from '../../domain/agents/agent-experiment';

/** What a run of an experiment follows: the definition with its variant's parts, the model, and the record of it. */
export interface AssignedVariant {
  definition: AgentDefinition;
  model: ModelSettings;
  experiment?: ExperimentRef;
}

/**
 * The variant a new run of `definition` follows (docs/evaluation.md, "Live experiments"): chosen
 * by the experiment's key (the caller, the tenant, the thread whose turn this run is, or the run),
 * else the run's workflow id (a fork's: its original's), and applied over the definition: its
 * prompt, examples and tools replace the definition's, its budget fields the definition's, its
 * model fields the run's.
 * Deterministic: a pure hash of values the run already has, so it costs no activity, and a
 * definition without an experiment comes back as it was.
 */
export function assignedVariant(input: AgentInput, definition: AgentDefinition, workflowId: string): AssignedVariant {
  const experiment = definition.experiment;
  if (!experiment) return { definition, model: input.model };
  const { by, key } = experimentKeyOf(experiment.assignBy, {
    // A fork stands in for its original: keyed by the run, it gets the original's variant.
    workflowId: input.fork?.from.workflowId ?? workflowId,
    ...(input.caller ? { callerId: input.caller.id } : {}),
    ...(input.caller?.tenant ? { tenant: input.caller.tenant } : {}),
    ...threadOf(workflowId),
  });
  const variant = assignVariant(experiment, key);
  const budget = definition.budget || variant.budget ? { ...definition.budget, ...variant.budget } : undefined;
  return {
    definition: {
      ...definition,
      ...(variant.systemPrompt !== undefined ? { systemPrompt: variant.systemPrompt } : {}),
      ...(variant.examples !== undefined ? { examples: variant.examples } : {}),
      ...(variant.tools !== undefined ? { tools: variant.tools } : {}),
      ...(budget ? { budget } : {}),
    },
    model: variant.model ? { ...input.model, ...variant.model } : input.model,
    experiment: { name: experiment.name, variant: variant.name, by },
  };
}

/** The thread a run is a turn of: its parent's id when its own is `<parent>-turn-<n>` (threads/thread-state.ts). */
function threadOf(workflowId: string): { threadId?: string } {
  const parent = workflowInfo().parent?.workflowId;
  return parent !== undefined && workflowId.startsWith(`${parent}-turn-`) ? { threadId: parent } : {};
}
