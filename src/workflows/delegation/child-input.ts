import type { AgentInput, AgentInputInit, DelegationLink, SubAgentDefinition, SubBudget } from '../../domain';

/**
 * A sub-agent's input: its definition (instructions, model, tools), its carved sub-budget, and
 * what must hold across the whole tree (caller, approvals, signed decisions, allowed models, views, the catalogue
 * and the delegation path), and the same reasoning rules (thoughts, labels, scratchpad, asking for
 * confidence). Not inherited: the parent's task, phrases, planning, questions and its
 * confirmBelowConfidence (a person confirms the root's answer, not each child's).
 * A definition without `tools` inherits its parent's limits, never every tool on the worker.
 */
export function childInput(
  parent: AgentInput,
  definition: SubAgentDefinition,
  task: string,
  budget: SubBudget,
  path: readonly DelegationLink[],
  maxDepth: number,
): AgentInputInit {
  const { tokenBudget, costBudgetUsd, runTimeoutMs, maxIterations } = budget;
  const tools = childTools(parent, definition, path);
  return {
    task,
    agentName: path[path.length - 1]!.agentName,
    ...(definition.instructions ? { systemPrompt: definition.instructions } : {}),
    model: childModel(parent.model, definition.model),
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
    stallWindow: parent.stallWindow,
    similarCallThreshold: parent.similarCallThreshold,
    requireThought: parent.requireThought,
    thoughtPrompt: parent.thoughtPrompt,
    labels: parent.labels,
    ...(parent.thoughtValidation ? { thoughtValidation: parent.thoughtValidation } : {}),
    scratchpad: parent.scratchpad,
    askConfidence: parent.askConfidence,
    cancelGraceMs: parent.cancelGraceMs,
    maxContextChars: parent.maxContextChars,
    ...(parent.contextSummary ? { contextSummary: parent.contextSummary } : {}),
    continueAsNewAtBytes: parent.continueAsNewAtBytes,
    ...(parent.caller ? { caller: parent.caller } : {}),
    approvals: parent.approvals,
    // A child's approvals and answers are as protected as its parent's.
    ...(parent.signedDecisions ? { signedDecisions: parent.signedDecisions } : {}),
    approvalTimeoutMs: parent.approvalTimeoutMs,
    ...(parent.allowedModels ? { allowedModels: parent.allowedModels } : {}),
    ...(parent.grounding ? { grounding: parent.grounding } : {}),
    visibilityByToolType: parent.visibilityByToolType,
    visibilityByTool: parent.visibilityByTool,
    agents: parent.agents,
    maxDelegationDepth: parent.maxDelegationDepth,
    maxParallelToolCalls: parent.maxParallelToolCalls,
    // A sub-agent is checked by its parent's guardrails (its agent's and its own): what it writes reaches the parent's doors.
    ...(parent.guardrailSpecs?.length ? { guardrails: parent.guardrailSpecs.map((g) => g.name) } : {}),
    delegation: { path: [...path], maxDepth },
  };
}

/**
 * The child's tool list. A definition's own list is the catalogue author's grant, kept as it is
 * (a coordinator need not hold its workers' tools). Without one, the child gets what its parent
 * has: the parent's registered tools plus the catalogue agents not on its delegation path; only
 * an unlimited parent leaves it unlimited.
 */
function childTools(
  parent: AgentInput,
  definition: SubAgentDefinition,
  path: readonly DelegationLink[],
): string[] | undefined {
  if (definition.tools || !parent.tools) return definition.tools;
  const isAgent = (name: string) => Object.hasOwn(parent.agents, name);
  const onPath = new Set(path.map((link) => link.agentName));
  return [
    ...parent.tools.filter((name) => !isAgent(name)),
    ...Object.keys(parent.agents).filter((name) => !onPath.has(name)),
  ];
}

/**
 * The parent's model with the definition's fields over it. Another model keeps none of the
 * parent's endpoints (registry entries of the parent's model) or sampling, unless it sets its own.
 */
function childModel(parent: AgentInput['model'], own: SubAgentDefinition['model']): AgentInput['model'] {
  if (!own) return parent;
  const other =
    (own.provider !== undefined && own.provider !== parent.provider) ||
    (own.model !== undefined && own.model !== parent.model);
  if (!other) return { ...parent, ...own };
  const { endpoints: _endpoints, sampling: _sampling, ...kept } = parent;
  return { ...kept, ...own };
}
