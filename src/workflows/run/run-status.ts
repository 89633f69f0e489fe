import type { AgentStatus } from '../../domain';
import type { RunContext } from '../core/state/run-context';
import type { SubAgentTree } from '../delegation/sub-agent-tree';
import type { People } from '../people/people';
import { planProgress } from '../planning/plans/plan-tracker';

/**
 * The `status` query's record: cheap to build, so it can be polled; approvals are the whole tree's.
 * `waitingFor` is read by people (`status`, the Web UI, the API): in words, never a handler's name.
 */
export function runStatus(
  { input, chain, state }: RunContext,
  { gate, desk, inbox, stall, budget }: People,
  tree: SubAgentTree,
): AgentStatus {
  const stallQuestion = stall.current;
  const last = chain.steps[chain.steps.length - 1];
  const pendingApprovals = tree.pending(gate.pending());
  const waitingFor = pendingApprovals.length
    ? `approval of ${pendingApprovals.map((r) => `${r.toolName} (${r.callId}${r.agentPath && r.agentPath.length > 1 ? ` in ${r.agentPath[r.agentPath.length - 1]}` : ''})`).join(', ')}`
    : desk.current
      ? `answer: ${desk.current.question}`
      : stallQuestion
        ? `a decision on the stall: ${stallQuestion}`
        : budget.current
          ? `a raise of its budget: ${budget.current.message}`
          : undefined;
  const plan = chain.plan;
  return {
    status: chain.status,
    iteration: state.iteration,
    maxIterations: input.maxIterations,
    steps: chain.stepCount,
    usage: state.usage,
    costUsd: state.costUsd,
    model: state.lastModel,
    continuations: state.continuations,
    ...(last ? { lastStep: `${last.stepNumber} ${last.type}` } : {}),
    ...(input.tokenBudget !== undefined ? { tokenBudget: input.tokenBudget } : {}),
    ...(input.costBudgetUsd !== undefined ? { costBudgetUsd: input.costBudgetUsd } : {}),
    ...(state.cancelRequested !== undefined ? { cancelRequested: state.cancelRequested } : {}),
    ...(budget.current ? { budgetPause: budget.current } : {}),
    ...(waitingFor ? { waitingFor } : {}),
    pendingApprovals,
    ...(desk.current ? { openQuestion: desk.current } : {}),
    ...(inbox.waiting.length ? { steeringQueued: inbox.waiting.length } : {}),
    ...(plan ? { plan: planProgress(plan) } : {}),
    subAgents: [...tree.runs],
    ...(state.times ? { times: state.times } : {}),
  };
}
