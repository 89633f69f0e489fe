import { ApplicationFailure } from '@temporalio/workflow';
import { FailureType, type AgentInput, type SubAgentDefinition, type ToolSpec } from '../../domain';
import { ownValue } from '../../domain/text/own-value';
import { delegationPath } from './delegation-guard';

/** A child with no time limit of its own may run this long before the call's activity-like timeout reads as its limit. */
const DEFAULT_SUB_AGENT_TIMEOUT_MS = 3_600_000;

/** How a catalogue agent looks to the model that may call it: a tool of type `sub_agent` taking a task. */
export function subAgentSpec(name: string, definition: SubAgentDefinition): ToolSpec {
  return {
    name,
    type: 'sub_agent',
    description: `${definition.description} (A sub-agent: it works on its own and sees nothing of your conversation, so write a complete, self-contained task.)`,
    inputSchema: {
      type: 'object',
      properties: {
        task: { type: 'string', description: 'The whole task for this agent, with every detail it needs.' },
      },
      required: ['task'],
      additionalProperties: false,
    },
    timeoutMs: definition.limits.runTimeoutMs ?? DEFAULT_SUB_AGENT_TIMEOUT_MS,
    retry: { maximumAttempts: 1, initialIntervalMs: 1_000, backoffCoefficient: 2 },
    visibility: 'full',
  };
}

/**
 * Splits the run's `tools` into registered tools (for `describeTools`) and catalogue agents.
 * Without a list, every catalogue agent not already on the delegation path is offered; a list
 * may name one on the path, and the call is then refused as a cycle, visibly.
 */
export function splitToolNames(
  input: AgentInput,
  workflowId: string,
): { registered: string[] | undefined; agents: string[] } {
  const catalogue = Object.keys(input.agents);
  if (input.tools) {
    return {
      registered: input.tools.filter((n) => !catalogue.includes(n)),
      agents: input.tools.filter((n) => catalogue.includes(n)),
    };
  }
  const onPath = new Set(delegationPath(input, workflowId).map((l) => l.agentName));
  return { registered: undefined, agents: catalogue.filter((n) => !onPath.has(n)) };
}

/** The run's tool set: registered tools, then catalogue agents; a name in both is a configuration error. */
export function withSubAgents(
  input: AgentInput,
  registered: readonly ToolSpec[],
  agentNames: readonly string[],
): ToolSpec[] {
  const clash = registered.find((t) => Object.hasOwn(input.agents, t.name));
  if (clash) {
    throw ApplicationFailure.create({
      type: FailureType.InvalidAgentInput,
      message: `"${clash.name}" is both a registered tool and an agent in the catalogue; rename one.`,
      nonRetryable: true,
    });
  }
  return [...registered, ...agentNames.map((name) => subAgentSpec(name, ownValue(input.agents, name)!))];
}
