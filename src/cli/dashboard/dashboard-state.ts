import type {
  AgentResult,
  AgentStatus,
  Plan,
  PlanProgress,
  ReasoningStep,
  SubAgentRun,
  TaskStatus,
} from '../../domain';
import type { WatchEvent } from '../../client/agent-client';
import { runEnding } from '../../domain/run/run-ending';
import { subAgentTitle } from '../../domain/agents/branching';

/** How much streamed model text the state keeps: the screen shows a few lines of its end. */
const LIVE_TAIL_CHARS = 2_000;

export interface DashboardTask {
  id: string;
  description: string;
  status: TaskStatus;
  dependencies: readonly string[];
}

export interface DashboardPlan {
  version: number;
  completed: number;
  total: number;
  /** The task in progress, when one is. */
  current?: string | undefined;
  tasks: readonly DashboardTask[];
}

/** A child run as the dashboard shows it: its own progress once its status was read. */
export interface DashboardSubAgent {
  agentName: string;
  workflowId: string;
  status: SubAgentRun['status'];
  iteration?: number;
  maxIterations?: number;
  plan?: { completed: number; total: number };
  costUsd?: number;
}

export interface DashboardAction {
  tool: string;
  /** The call's arguments as JSON (untrusted: the renderer makes them inert). */
  args: string;
  state: 'running' | 'done' | 'failed';
  durationMs?: number;
}

/**
 * What the dashboard shows, folded from the follow events and the status reads. Pure data:
 * every `with…` function returns a new state and reads no clock (times come in as arguments).
 */
export interface DashboardState {
  workflowId: string;
  goal: string;
  startedAtMs: number;
  /** The chain's status from the last status read, or `ended` once the result is in. */
  runStatus?: AgentStatus['status'] | 'ended';
  iteration: number;
  maxIterations?: number;
  plan?: DashboardPlan;
  /** The model's latest thought, or its reply as it streams (`thoughtLive`). */
  thought?: string;
  thoughtLive: boolean;
  action?: DashboardAction;
  /** The loop's latest brief note: the next task it chose, an observer's reading, a goal check. */
  note?: string;
  subAgents: readonly DashboardSubAgent[];
  /** From the status read when there was one (sub-agents included), else summed from model steps. */
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  steps: number;
  outcome?: { success: boolean; reason: string };
  /**
   * What the run ended with, from runEnding: its answer under the answer's title ("Final answer",
   * "Partial answer (max_iterations)", …), else its error. Shown whole once the run ended.
   */
  ending?: { title: string; text: string };
  /** What the CLI would otherwise log while following (a run whose tasks nobody takes); untrusted-safe on render. */
  warning?: string;
}

export function startDashboard(workflowId: string, goal: string, nowMs: number): DashboardState {
  return {
    workflowId,
    goal,
    startedAtMs: nowMs,
    iteration: 0,
    thoughtLive: false,
    subAgents: [],
    costUsd: 0,
    inputTokens: 0,
    outputTokens: 0,
    steps: 0,
  };
}

const planOf = (plan: Plan | PlanProgress): DashboardPlan => {
  const tasks = plan.tasks.map((t) => ({
    id: t.id,
    description: t.description,
    status: t.status,
    dependencies: t.dependencies ?? [],
  }));
  const current = 'current' in plan ? plan.current : tasks.find((t) => t.status === 'in_progress')?.id;
  return {
    version: plan.version,
    completed: 'completed' in plan ? plan.completed : tasks.filter((t) => t.status === 'completed').length,
    total: 'total' in plan ? plan.total : tasks.length,
    current,
    tasks,
  };
};

const argsText = (args: Record<string, unknown>): string => {
  try {
    return JSON.stringify(args);
  } catch {
    return '(arguments not shown)';
  }
};

/** One step folded in. Steps arrive in order, each once (AgentClient.follow). */
export function withStep(state: DashboardState, step: ReasoningStep): DashboardState {
  const next: DashboardState = {
    ...state,
    steps: Math.max(state.steps, step.stepNumber),
    iteration: Math.max(state.iteration, step.iteration),
    // A landed step closes the streamed reply it belonged to.
    ...(state.thoughtLive ? { thought: undefined, thoughtLive: false } : {}),
  };
  if (step.visibility.level === 'hidden') return next;
  switch (step.type) {
    case 'thinking':
      return withThinking(next, step);
    case 'tool_call': {
      const call = step.toolCall;
      if (call.toolType === 'llm') return next;
      const child = call.delegatedTo;
      const known = child && state.subAgents.some((s) => s.workflowId === child.workflowId);
      return {
        ...next,
        action: { tool: call.toolName, args: argsText(call.arguments), state: 'running' },
        ...(child && !known
          ? {
              subAgents: [
                ...state.subAgents,
                { agentName: child.agentName, workflowId: child.workflowId, status: 'running' as const },
              ],
            }
          : {}),
      };
    }
    case 'tool_result': {
      const r = step.toolResult;
      if (step.model && typeof r.result !== 'string')
        return {
          ...next,
          costUsd: next.costUsd + (step.costUsd ?? 0),
          inputTokens: next.inputTokens + (step.usage?.inputTokens ?? 0),
          outputTokens: next.outputTokens + (step.usage?.outputTokens ?? 0),
        };
      const action = next.action && {
        ...next.action,
        state: r.success ? ('done' as const) : ('failed' as const),
        durationMs: r.durationMs,
      };
      const ended = r.subAgent;
      return {
        ...next,
        ...(action ? { action } : {}),
        ...(ended
          ? {
              subAgents: next.subAgents.map((s) =>
                s.workflowId === ended.workflowId
                  ? {
                      ...s,
                      status: ended.status,
                      ...(ended.iterations !== undefined ? { iteration: ended.iterations } : {}),
                      ...(ended.costUsd !== undefined ? { costUsd: ended.costUsd } : {}),
                    }
                  : s,
              ),
            }
          : {}),
      };
    }
    case 'synthesis':
      return { ...next, thought: step.synthesis.conclusion };
  }
}

function withThinking(state: DashboardState, step: Extract<ReasoningStep, { type: 'thinking' }>): DashboardState {
  switch (step.purpose) {
    case undefined:
    case 'reflection':
      return { ...state, thought: step.thought };
    case 'plan':
      return step.plan ? { ...state, plan: planOf(step.plan) } : state;
    case 'task_choice': {
      const choice = step.taskChoice;
      if (!choice) return { ...state, note: step.thought };
      const plan = state.plan && { ...state.plan, current: choice.taskId };
      return {
        ...state,
        ...(plan ? { plan } : {}),
        note: `Next task ${choice.taskId}${choice.chosenBy === 'model' ? " (the model's choice)" : ''}: ${choice.reason}`,
      };
    }
    case 'observation': {
      const seen = step.observation;
      if (!seen) return { ...state, note: step.thought };
      const what = seen.learned ?? seen.adjustment ?? step.thought;
      return { ...state, note: `Observed ${seen.success ? '✓' : '✗'}${seen.taskId ? ` ${seen.taskId}` : ''}: ${what}` };
    }
    case 'goal_check':
    case 'fallback':
    case 'delegation_blocked':
    case 'context':
    case 'memory':
    case 'rate_limit':
    case 'compaction':
    case 'branch_choice':
      return { ...state, note: step.thought };
  }
}

/** Streamed model text, appended to the thought until the step it belongs to lands. */
export function withLive(state: DashboardState, text: string): DashboardState {
  const before = state.thoughtLive ? (state.thought ?? '') : '';
  return { ...state, thought: (before + text).slice(-LIVE_TAIL_CHARS), thoughtLive: true };
}

/** The run's status query: iteration of its maximum, spend (sub-agents included), plan progress. */
export function withStatus(state: DashboardState, status: AgentStatus): DashboardState {
  const subAgents = (status.subAgents ?? []).map((run): DashboardSubAgent => {
    const known = state.subAgents.find((s) => s.workflowId === run.workflowId);
    return {
      ...known,
      agentName: subAgentTitle(run),
      workflowId: run.workflowId,
      status: run.status,
      ...(run.iterations !== undefined ? { iteration: run.iterations } : {}),
      ...(run.costUsd !== undefined ? { costUsd: run.costUsd } : {}),
    };
  });
  return {
    ...state,
    runStatus: state.runStatus === 'ended' ? 'ended' : status.status,
    iteration: Math.max(state.iteration, status.iteration),
    maxIterations: status.maxIterations,
    costUsd: status.costUsd,
    inputTokens: status.usage.inputTokens,
    outputTokens: status.usage.outputTokens,
    steps: Math.max(state.steps, status.steps),
    ...(status.plan ? { plan: planOf(status.plan) } : {}),
    // A child the chain named but the status does not list yet stays.
    subAgents: [...subAgents, ...state.subAgents.filter((s) => !subAgents.some((r) => r.workflowId === s.workflowId))],
  };
}

/** A running child's own status: its iteration, maximum, plan progress and spend so far. */
export function withSubAgentStatus(state: DashboardState, workflowId: string, status: AgentStatus): DashboardState {
  return {
    ...state,
    subAgents: state.subAgents.map((s) =>
      s.workflowId === workflowId
        ? {
            ...s,
            iteration: status.iteration,
            maxIterations: status.maxIterations,
            costUsd: status.costUsd,
            ...(status.plan ? { plan: { completed: status.plan.completed, total: status.plan.total } } : {}),
          }
        : s,
    ),
  };
}

/** A warning the CLI would otherwise log to stderr, which would be drawn over (stall advice). */
export const withWarning = (state: DashboardState, text: string): DashboardState => ({ ...state, warning: text });

/** The run ended: its own totals (and its limit) replace what was read along the way; its answer or error is kept whole. */
export function withResult(state: DashboardState, result: AgentResult): DashboardState {
  // The result followed is already the reader's view (AgentClient.follow reads the developer's).
  const ended = runEnding({ result });
  const ending =
    ended.answer !== undefined
      ? { title: ended.answerTitle ?? 'Answer', text: ended.answer }
      : ended.error !== undefined
        ? { title: 'Error', text: ended.error }
        : undefined;
  return {
    ...state,
    runStatus: 'ended',
    iteration: result.iterations,
    ...(result.maxIterations !== undefined ? { maxIterations: result.maxIterations } : {}),
    ...(ending ? { ending } : {}),
    costUsd: result.costUsd,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    ...(result.plan ? { plan: planOf(result.plan) } : {}),
    ...(state.action?.state === 'running' ? { action: { ...state.action, state: 'done' as const } } : {}),
    outcome: { success: result.success, reason: result.terminationReason },
  };
}

/** The state after `events` (in order) and the latest status read: for tests and one-shot views. */
export function dashboardState(
  start: DashboardState,
  events: readonly WatchEvent[],
  status?: AgentStatus,
): DashboardState {
  let state = start;
  for (const event of events)
    if (event.type === 'step') state = withStep(state, event.step);
    else if (event.type === 'live') state = withLive(state, event.text);
  return status ? withStatus(state, status) : state;
}
