import type { AgentDefinition, AgentDefinitionInit } from '../domain/agents/agent-definition';
import { AgentDefinitionError } from './agent-definition-error';
import { defineAgent } from './define-agent';

/** The agents a worker can start by name: one definition (one version) per id. */
export interface AgentRegistry {
  get(id: string): Readonly<AgentDefinition> | undefined;
  /** Every registered id, sorted. */
  ids(): string[];
}

/** Checks every definition again (plain objects too) and refuses an id, or an experiment's name, registered twice. */
export function createAgentRegistry(definitions: readonly AgentDefinitionInit[]): AgentRegistry {
  const byId = new Map<string, Readonly<AgentDefinition>>();
  for (const init of definitions) {
    const definition = defineAgent(init);
    if (byId.has(definition.id))
      throw new AgentDefinitionError(
        `Agent "${definition.id}" is registered twice; a worker serves one version of each agent.`,
      );
    const experiment = definition.experiment?.name;
    const sharing = experiment ? [...byId.values()].find((d) => d.experiment?.name === experiment) : undefined;
    if (sharing)
      throw new AgentDefinitionError(
        `Agents "${sharing.id}" and "${definition.id}" both run experiment "${experiment}"; give each its own name, so its report counts one agent's runs.`,
      );
    byId.set(definition.id, definition);
  }
  const ids = [...byId.keys()].sort();
  return { get: (id) => byId.get(id), ids: () => [...ids] };
}
