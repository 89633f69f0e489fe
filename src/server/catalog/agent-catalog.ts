import type { AgentDefinitionInit } from '../../domain/agents/agent-definition';
import { defineAgent } from '../../agents/define-agent';

/** The name of the catalogue's generic agent: a run with the worker's own tools and no definition. */
export const GENERIC_AGENT = 'agent';

/**
 * One agent the protocol endpoints offer (an A2A agent card, an MCP tool, an AG-UI agent): what a
 * caller reads to choose it, and how a run of it starts.
 */
export interface CatalogAgent {
  /** The agent's id: URL segment, MCP tool name and `agentName` of its runs. */
  name: string;
  description: string;
  /** The definition's version; absent for the generic agent. */
  version?: string;
  /** The tools (and catalogue agents) its definition names; empty: the worker's own. */
  tools: string[];
  /** Worked examples from its definition (A2A skill examples). */
  examples: Array<{ task: string; answer: string }>;
  /** How a run of it starts: by its registered definition, or as the generic agent. */
  start: { agent: string } | { agentName: string };
}

/** The agents `serve` and `mcp-server` offer over A2A, MCP and AG-UI. */
export interface AgentCatalog {
  /** Every agent, sorted by name; the generic agent first. */
  list(): CatalogAgent[];
  get(name: string): CatalogAgent | undefined;
  /**
   * Whether the catalogue was read from a module (`serve --agents FILE`, or `--tools FILE`): then
   * it names the agents this deployment's workers register, and a name it lacks is refused where a
   * run of it would be scheduled. False for the default catalogue (the generic agent only), which
   * knows nothing of the workers' agents.
   */
  readonly declared: boolean;
}

const generic: CatalogAgent = {
  name: GENERIC_AGENT,
  description:
    'A Thoughtline ReAct agent with the tools of the workers serving it: give it a task, follow its reasoning chain.',
  tools: [],
  examples: [],
  start: { agentName: GENERIC_AGENT },
};

/**
 * The catalogue from the agents a module defines (`serve --agents FILE`, or `--tools FILE` with
 * `--with-worker`), checked as a worker checks them; the generic agent too unless one is named `agent`.
 * Without definitions (no module named) the catalogue is not `declared`.
 */
export function createAgentCatalog(definitions?: readonly AgentDefinitionInit[]): AgentCatalog {
  const byName = new Map<string, CatalogAgent>();
  for (const init of definitions ?? []) {
    const definition = defineAgent(init);
    byName.set(definition.id, {
      name: definition.id,
      description: definition.description,
      version: definition.version,
      tools: [...(definition.tools ?? [])],
      examples: (definition.examples ?? []).map((e) => ({ task: e.task, answer: e.answer })),
      start: { agent: definition.id },
    });
  }
  if (!byName.has(GENERIC_AGENT)) byName.set(GENERIC_AGENT, generic);
  const names = [...byName.keys()].sort((a, b) =>
    a === GENERIC_AGENT ? -1 : b === GENERIC_AGENT ? 1 : a < b ? -1 : 1,
  );
  const list = names.map((name) => byName.get(name)!);
  return { list: () => [...list], get: (name) => byName.get(name), declared: definitions !== undefined };
}
