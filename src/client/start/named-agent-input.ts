import { AgentInput, type AgentInputInit } from '../../domain';
import { AgentInputConflictError } from '../errors/agent-input-conflict-error';

const DEFAULT_AGENT_NAME = AgentInput.shape.agentName.parse(undefined);

/**
 * The input of a run that names an agent (`agent`, or a whole `definition` inline), as the client
 * starts it: named after the agent (so `ThoughtlineAgent` holds its id), and refused when it sets
 * what only the definition may (its prompt and tools), as the run itself would refuse it.
 * Inputs naming no agent pass through unchanged.
 */
export function namedAgentInput(init: AgentInputInit): AgentInputInit {
  const id = init.definition?.id ?? init.agent;
  if (id === undefined) return init;
  if (init.agent !== undefined && init.definition && init.definition.id !== init.agent)
    throw new AgentInputConflictError(
      `agent "${init.agent}" and definition "${init.definition.id}" name different agents; send one.`,
    );
  if (init.systemPrompt !== undefined)
    throw new AgentInputConflictError(
      `A run of agent "${id}" takes its system prompt from the definition; leave systemPrompt out, or define a new version.`,
    );
  if (init.tools !== undefined)
    throw new AgentInputConflictError(
      `A run of agent "${id}" takes its tools from the definition; leave tools out, or define a new version.`,
    );
  // An input parsed already (the server's body) carries the default name: that is no choice of the caller's.
  if (init.agentName !== undefined && init.agentName !== id && init.agentName !== DEFAULT_AGENT_NAME)
    throw new AgentInputConflictError(`agentName "${init.agentName}" is not agent "${id}"; leave agentName out.`);
  return { ...init, agentName: id };
}
