import type { Result, Task } from '@modelcontextprotocol/sdk/types.js';
import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import { ApiError } from '../server/api-error';
import type { ApiContext } from '../server/api-route';
import type { Identity } from '../server/auth/identity';
import { viewedStatus } from '../server/protocols/viewed-status';
import { cancelRun } from '../server/protocols/run-actions';
import { viewedEnding } from '../server/protocols/viewed-ending';
import type { RunEnding } from '../domain/run/run-ending';
import type { RunFacts } from '../server/run-access';
import { endedContent } from './follow-run';
import { MAX_LISTED_TASKS, MAX_RUN_ID_CHARS } from './mcp-limits';
import { counted } from '../domain/text/counted';

/** How often a client is told to poll `tasks/get` (ms): a run's steps take seconds, its waits hours. */
export const TASK_POLL_INTERVAL_MS = 5_000;

/**
 * An ended run's MCP task status, from its ending: completed for a success and a stop at a limit
 * (its partial answer is the result), cancelled for a person's cancel and a termination, failed
 * for a failure, an error, a timeout and a workflow that failed without a result.
 */
function endedStatus(ending: RunEnding): Task['status'] {
  // By tone, as A2A and AG-UI do.
  switch (ending.tone) {
    case 'ok':
    case 'limit':
      return 'completed';
    case 'stopped':
      return 'cancelled';
    case 'bad':
      return 'failed';
  }
}

/**
 * The MCP Tasks extension's store, backed by Temporal: a task is an agent run (task id = the
 * run's workflow id), its status read from the run (an ended one's from its ending), its result
 * the run's ending as a tool result (resultContent). Nothing is
 * kept here but the ids this session started (for `tasks/list`), so any server instance answers
 * for a task and a run that parks for a day is a task like another. Bound to one caller (`caller`:
 * who sends the request being handled, authenticated for it): a task
 * is reached only through run access (another tenant's run is "not found").
 */
export function createTemporalTaskStore(
  ctx: ApiContext,
  caller: () => Identity,
): TaskStore & { started(id: string): void } {
  const listed: string[] = [];

  const facts = async (taskId: string): Promise<RunFacts | undefined> => {
    if (taskId.length === 0 || taskId.length > MAX_RUN_ID_CHARS) return undefined;
    try {
      return await ctx.accessRun(caller(), taskId);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'not_found') return undefined;
      throw err;
    }
  };

  const getTask = async (taskId: string): Promise<Task | null> => {
    const run = await facts(taskId);
    if (!run) return null;
    const description = await ctx.agents.getHandle(taskId).describe();
    let status: Task['status'] = 'working';
    let statusMessage: string | undefined;
    if (run.state === 'running' || run.state === 'continued') {
      const live = await viewedStatus(ctx, caller(), run).catch(() => undefined);
      if (live?.cancelRequested !== undefined) status = 'cancelled';
      else if (live && (live.pendingApprovals.length > 0 || live.openQuestion)) {
        status = 'input_required';
        statusMessage = live.openQuestion
          ? 'The agent asks a question: tasks/result puts it to you.'
          : `Waiting for a decision on ${live.pendingApprovals.map((a) => a.toolName).join(', ')}: tasks/result puts it to you.`;
      } else if (live) statusMessage = `${counted(live.steps, 'step')} so far`;
    } else {
      const { ending } = await viewedEnding(ctx, caller(), run);
      status = endedStatus(ending);
      statusMessage = `The run ended ${ending.summary}.`;
    }
    const closed = description.closeTime ?? description.executionTime ?? description.startTime;
    return {
      taskId,
      status,
      ...(statusMessage ? { statusMessage } : {}),
      createdAt: description.startTime.toISOString(),
      lastUpdatedAt: (status === 'working' || status === 'input_required' ? new Date() : closed).toISOString(),
      ttl: null,
      pollInterval: TASK_POLL_INTERVAL_MS,
    };
  };

  return {
    started(id) {
      listed.push(id);
      if (listed.length > MAX_LISTED_TASKS) listed.shift();
    },
    async createTask() {
      // Runs start in the agent tool's handler, which returns the task; nothing is created here.
      throw new Error('Tasks start with tools/call on an agent tool.');
    },
    getTask: (taskId) => getTask(taskId),
    async storeTaskResult() {
      // The result is the run's own, kept by Temporal.
    },
    async getTaskResult(taskId): Promise<Result> {
      const run = await facts(taskId);
      if (!run) throw new Error(`Task not found: ${taskId}`);
      return endedContent(ctx, caller(), taskId, run);
    },
    async updateTaskStatus(taskId, status) {
      // Only a cancel changes a run from here; the other states are the run's own.
      if (status === 'cancelled') await cancelRun(ctx, caller(), taskId, 'cancelled by the MCP client (tasks/cancel)');
    },
    async listTasks() {
      const tasks = (await Promise.all([...listed].reverse().map((id) => getTask(id).catch(() => null)))).filter(
        (t): t is Task => t !== null,
      );
      return { tasks };
    },
  };
}
