import type { AgentInput, AgentInputInit, DelegationLink, SubAgentDefinition, SubBudget } from '../../shared';

/**
 * A sub-agent's input: its definition (instructions, model, tools), its carved sub-budget, and
 * what must hold across the whole tree (caller, approvals, allowed models, views, the catalogue
 * and the delegation path). Not inherited: the parent's task, phrases, planning and questions.
 */
export function childInput(parent: AgentInput, definition: SubAgentDefinition, task: string, budget: SubBudget, path: readonly DelegationLink[], maxDepth: number): AgentInputInit {
  const { tokenBudget, costBudgetUsd, runTimeoutMs, maxIterations } = budget;
  return {
    task,
    agentName: path[path.length - 1]!.agentName,
    ...(definition.instructions ? { systemPrompt: definition.instructions } : {}),
    model: { ...parent.model, ...definition.model },
    ...(definition.tools ? { tools: definition.tools } : {}),
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
