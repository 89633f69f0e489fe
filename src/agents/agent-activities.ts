import type { AgentDefinition } from '../domain/agents/agent-definition';
import type { ToolSpec } from '../domain/tools/tool-spec';
import type { AgentRegistry } from './agent-registry';

/** Ids listed in a refusal; the rest are counted, so the message stays small. */
const LISTED_IDS = 50;

export type DescribedAgent =
  { found: true; definition: AgentDefinition; tools: ToolSpec[] } | { found: false; known: string[]; more: number };

export interface AgentActivityDeps {
  agents: AgentRegistry;
  describeTools(names?: string[]): Promise<ToolSpec[]>;
}

export function createAgentActivities({ agents, describeTools }: AgentActivityDeps) {
  return {
    /**
     * A run started by name: its definition from this worker's registry and the specs of its
     * registered tools (names in `catalogue` are sub-agents the run describes itself). Called in
     * place of `describeTools`, so a run by name costs no extra activity; recorded in history, so
     * a replay and every continue-as-new keep the definition the run began with. An unknown name
     * is an answer, not a failure: the run refuses it visibly, with the names this worker knows.
     */
    async describeAgent(name: string, catalogue: string[]): Promise<DescribedAgent> {
      const definition = agents.get(name);
      if (!definition) {
        const ids = agents.ids();
        return { found: false, known: ids.slice(0, LISTED_IDS), more: Math.max(0, ids.length - LISTED_IDS) };
      }
      const registered = toolsOfEveryVariant(definition)?.filter((n) => !catalogue.includes(n));
      return { found: true, definition: { ...definition }, tools: await describeTools(registered) };
    },
  };
}

/**
 * The tools a run of `definition` may be given: the definition's, and with an experiment every
 * variant's too (the run keeps its own variant's), so assigning a variant costs no activity.
 * Undefined (every registered tool) when the definition names none; a variant without tools has its definition's.
 */
function toolsOfEveryVariant(definition: AgentDefinition): string[] | undefined {
  if (!definition.tools) return undefined;
  const names = new Set(definition.tools);
  for (const variant of definition.experiment?.variants ?? []) for (const name of variant.tools ?? []) names.add(name);
  return [...names];
}
