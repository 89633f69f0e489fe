import { ApplicationFailure } from '@temporalio/workflow';
import { FailureType, type AgentInput, type ToolSpec } from '../../domain';
import { agentBudgetDefaults } from '../../domain/agents/agent-budget';
import { raiserRolesWidening } from '../../domain/run/budget-pause';
import type { AgentDefinition, AgentRef } from '../../domain/agents/agent-definition';
import { activities } from '../activity-proxies';
import type { RunContext } from '../core/state/run-context';
import { agentSystemPrompt } from '../loop/few-shot';
import { assignedVariant } from './assign-variant';

/** What a new run follows once its definition is known; `tools` when the worker described them with it. */
export type ResolvedAgent = { input: AgentInput; tools?: ToolSpec[] } | { refused: string };

/**
 * A new run's agent definition: the one sent inline (`definition`), else the one the worker
 * registered under `agent` (one `describeAgent` activity, in place of `describeTools`), else none.
 * The definition's prompt with its examples becomes the run's `systemPrompt`, its tools the run's
 * `tools`, its id the run's `agentName`, its budget settings the run's where the run set none
 * (whatever door started it); all of it is carried from then on, so a worker redeployed mid-run
 * never changes the prompt under it. Deterministic: the worker's answer is recorded.
 */
export async function resolveAgent(ctx: RunContext): Promise<ResolvedAgent> {
  const { input } = ctx;
  if (input.agent === undefined && input.definition === undefined) return { input };
  const conflict = callerConflict(input);
  if (conflict)
    throw ApplicationFailure.create({ type: FailureType.InvalidAgentInput, message: conflict, nonRetryable: true });
  if (input.definition) return { input: following(ctx, input, input.definition, 'inline') };
  const name = input.agent!;
  const described = await activities.describeAgent(name, Object.keys(input.agents));
  if (!described.found) {
    const known = described.known.length
      ? `it knows ${described.known.join(', ')}${described.more ? ` and ${described.more} more` : ''}`
      : 'it has none registered';
    return { refused: `no agent "${name}" is registered on the worker that took this run (${known}).` };
  }
  const followed = following(ctx, input, described.definition, 'worker');
  // The worker described every variant's tools: keep the ones this run's variant names.
  const names = followed.tools;
  return { input: followed, tools: names ? described.tools.filter((t) => names.includes(t.name)) : described.tools };
}

/** Why a caller's input may not start this definition, or undefined: the prompt and tools are the definition's. */
function callerConflict(input: AgentInput): string | undefined {
  const id = input.definition?.id ?? input.agent;
  if (input.agent !== undefined && input.definition && input.definition.id !== input.agent)
    return `agent "${input.agent}" and definition "${input.definition.id}" name different agents; send one.`;
  if (input.systemPrompt !== undefined)
    return `A run of agent "${id}" takes its system prompt from the definition; leave systemPrompt out, or define a new version.`;
  if (input.tools !== undefined)
    return `A run of agent "${id}" takes its tools from the definition; leave tools out, or define a new version.`;
  return undefined;
}

function following(
  ctx: RunContext,
  input: AgentInput,
  definition: AgentDefinition,
  source: AgentRef['source'],
): AgentInput {
  // A definition with an experiment: the parts of the variant this run is assigned (assign-variant.ts).
  const { definition: followed, model, experiment } = assignedVariant(input, definition, ctx.workflowId);
  // The caller may narrow who raises, never widen it; a sub-agent is never asked (its tree is, at the top).
  const widening =
    input.delegation === undefined
      ? raiserRolesWidening(input.budgetRaiserRoles, followed.budget?.budgetRaiserRoles)
      : undefined;
  if (widening)
    throw ApplicationFailure.create({
      type: FailureType.InvalidAgentInput,
      message: `A run of agent "${definition.id}": ${widening}`,
      nonRetryable: true,
    });
  ctx.chain.setAgent({ id: definition.id, version: definition.version, source, ...(experiment ? { experiment } : {}) });
  return {
    ...input,
    agentName: definition.id,
    definition,
    systemPrompt: agentSystemPrompt(followed),
    ...(experiment ? { model } : {}),
    ...(followed.tools ? { tools: [...followed.tools] } : {}),
    // The agent's budget settings where the caller set none: here, so every door's runs get them.
    ...agentBudgetDefaults(input, followed.budget),
  };
}
