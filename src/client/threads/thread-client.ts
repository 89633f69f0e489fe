import { createHash } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowNotFoundError } from '@temporalio/client';
import type { AgentClient } from '../agent-client';
import { sendUpdate } from '../errors/update-refused-error';
import {
  ThreadStart,
  ThreadState,
  ThreadTurnRequest,
  type ThreadStartInit,
  type ThreadTurnReceipt,
  type ThreadView,
} from '../../domain/threads/thread-schemas';
import { threadQuery, threadTurnUpdate } from '../../workflows/threads/thread-messages';
import type { threadWorkflow } from '../../workflows/threads/thread-workflow';

/** The workflow type of a thread (workflows/index.ts exports it under this name). */
export const THREAD_WORKFLOW = 'threadWorkflow';

/**
 * The deterministic workflow id of `owner`'s thread `threadId`: the same from every server, and
 * never another owner's (tenant and id are hashed in, each length-prefixed so no two owners
 * share an input). `via`, how the owner signed in: an id from an OIDC issuer is another person
 * than the same id in the token file, so every source but the token file (and in-process callers,
 * the same people) is hashed in too, as a fourth part; token-file threads keep the ids they had.
 * 128 bits of SHA-256, hex.
 */
export function threadWorkflowId(owner: { id: string; tenant?: string; via?: string }, threadId: string): string {
  const source = owner.via === undefined || owner.via === 'token' || owner.via === 'in-process' ? [] : [owner.via];
  const parts = [...source, owner.tenant ?? '', owner.id, threadId];
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part.length}:${part}`);
  return `thread-${hash.digest('hex').slice(0, 32)}`;
}

/**
 * Delivers one turn with update-with-start: starts the thread when it does not exist (and, when
 * it completed idle, afresh from the transcript it returned), and returns once the turn's run has
 * started. The same `turnId` again returns the same receipt with `repeated: true`. The turn
 * carries who sends it now (`by`, their roles as authenticated for this turn) and the server's
 * signature requirement now; the thread keeps only whose it is. `owner.via`: how the owner signed
 * in (threadWorkflowId). Throws a
 * ZodError for a bad start or turn, UpdateRefusedError when the thread refuses the turn (another
 * caller's, or a turn while one runs).
 */
export async function sendThreadTurn(
  agents: AgentClient,
  start: ThreadStartInit,
  turn: ThreadTurnRequest,
  owner: { via?: string } = {},
): Promise<ThreadTurnReceipt> {
  const checked = ThreadStart.parse(start);
  const request = ThreadTurnRequest.parse(turn);
  const workflowId = threadWorkflowId({ ...checked.owner, ...owner }, checked.threadId);
  const carried = await closedThreadState(agents, workflowId);
  const operation = new WithStartWorkflowOperation<typeof threadWorkflow>(THREAD_WORKFLOW, {
    workflowId,
    taskQueue: agents.taskQueue,
    args: [{ ...checked, ...(carried ? { carried } : {}) }],
    // Another server may have started it since: its input is the same.
    workflowIdConflictPolicy: 'USE_EXISTING',
    // It outlives the worker version that started it, so it follows the current one.
    versioningOverride: 'AUTO_UPGRADE',
    staticSummary: `Thread ${checked.threadId}`.slice(0, 200),
  });
  return sendUpdate(() =>
    agents.client.workflow.executeUpdateWithStart(threadTurnUpdate, {
      args: [request],
      startWorkflowOperation: operation,
    }),
  );
}

/** The thread's kept turns; undefined when no such thread exists (a closed one answers from its result). */
export async function readThread(agents: AgentClient, workflowId: string): Promise<ThreadView | undefined> {
  const handle = agents.client.workflow.getHandle<typeof threadWorkflow>(workflowId);
  try {
    const description = await handle.describe();
    if (description.type !== THREAD_WORKFLOW) return undefined;
    if (description.status.name === 'RUNNING') return await handle.query(threadQuery);
    const state = ThreadState.safeParse(await handle.result().catch(() => undefined));
    return state.success
      ? { threadId: state.data.threadId, turns: state.data.turns, totalTurns: state.data.totalTurns }
      : undefined;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

/** The state a thread returned when it completed idle, to start it afresh from; none when it is open or unknown. */
async function closedThreadState(agents: AgentClient, workflowId: string): Promise<ThreadState | undefined> {
  const handle = agents.client.workflow.getHandle<typeof threadWorkflow>(workflowId);
  try {
    const description = await handle.describe();
    if (description.type !== THREAD_WORKFLOW || description.status.name !== 'COMPLETED') return undefined;
    const state = ThreadState.safeParse(await handle.result());
    return state.success ? state.data : undefined;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}
