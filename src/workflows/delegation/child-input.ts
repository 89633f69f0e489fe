import type { AgentInput, AgentInputInit, DelegationLink, SubAgentDefinition, SubBudget } from '../../shared';

/**
 * A sub-agent's input: its definition (instructions, model, tools), its carved sub-budget, and
 * what must hold across the whole tree (caller, approvals, allowed models, views, the catalogue
 * and the delegation path). Not inherited: the parent's task, phrases, planning and questions.
 * With `withinParentTools` (histories from patch `child-tools-within-parent` on), the child's
 * registered tools are never more than its parent's: a definition without `tools` inherits the
 * parent's list, and one with a list keeps only what the parent has.
 */
export function childInput(
  parent: AgentInput,
  definition: SubAgentDefinition,
  task: string,
  budget: SubBudget,
  path: readonly DelegationLink[],
  maxDepth: number,
  withinParentTools = false,
): AgentInputInit {
  const { tokenBudget, costBudgetUsd, runTimeoutMs, maxIterations } = budget;
  const tools = withinParentTools ? childTools(parent, definition, path) : definition.tools;
  return {
    task,
    agentName: path[path.length - 1]!.agentName,
    ...(definition.instructions ? { systemPrompt: definition.instructions } : {}),
    model: { ...parent.model, ...definition.model },
    ...(tools ? { tools } : {}),
    maxIterations,
    ...(tokenBudget !== undefined ? { tokenBudget } : {}),
    ...(costBudgetUsd !== undefined ? { costBudgetUsd } : {}),
    ...(runTimeoutMs !== undefined ? { runTimeoutMs } : {}),
    strategy: parent.strategy,
    finishToolName: parent.finishToolName,
    giveUpToolName: parent.giveUpToolName,
    maxToolResultChars: parent.maxToolResultChars,
    ...(parent.maxToolResultTokens !== undefined ? { maxToolResultTokens: parent.maxToolResultTokens } : {}),
    summariseLargeResults: parent.summariseLargeResults,
    visibility: parent.visibility,
    stallThreshold: parent.stallThreshold,
    cancelGraceMs: parent.cancelGraceMs,
    maxContextChars: parent.maxContextChars,
    continueAsNewAtBytes: parent.continueAsNewAtBytes,
    ...(parent.caller ? { caller: parent.caller } : {}),
    approvals: parent.approvals,
    approvalTimeoutMs: parent.approvalTimeoutMs,
    ...(parent.allowedModels ? { allowedModels: parent.allowedModels } : {}),
    visibilityByToolType: parent.visibilityByToolType,
    visibilityByTool: parent.visibilityByTool,
    agents: parent.agents,
    maxDelegationDepth: parent.maxDelegationDepth,
    maxParallelToolCalls: parent.maxParallelToolCalls,
    delegation: { path: [...path], maxDepth },
  };
}

/**
 * The child's tool list: catalogue agents as its definition names them (or every one not on its
 * delegation path), and registered tools narrowed to the parent's; undefined (every registered
 * tool) only when neither the parent nor the definition limits them.
 */
function childTools(parent: AgentInput, definition: SubAgentDefinition, path: readonly DelegationLink[]): string[] | undefined {
  const isAgent = (name: string) => Object.hasOwn(parent.agents, name);
  const parentRegistered = parent.tools?.filter((name) => !isAgent(name));
  if (!parentRegistered) return definition.tools;
  const onPath = new Set(path.map((link) => link.agentName));
  const agents = definition.tools ? definition.tools.filter(isAgent) : Object.keys(parent.agents).filter((name) => !onPath.has(name));
  const registered = (definition.tools ?? parentRegistered).filter((name) => !isAgent(name) && parentRegistered.includes(name));
  return [...registered, ...agents];
}
