import type { AgentClient } from '../agent-client';
import type {
  ThreadStartInit,
  ThreadTurnReceipt,
  ThreadTurnRequest,
  ThreadView,
} from '../../shared/threads/thread-schemas';

/**
 * The deterministic workflow id of `owner`'s thread `threadId`: the same from every server, and
 * never another owner's (tenant and id are hashed in). Contract stub for issue 52.
 */
export function threadWorkflowId(_owner: { id: string; tenant?: string }, _threadId: string): string {
  throw new Error('threadWorkflowId: not built yet (issue 52)');
}

/** Delivers one turn with update-with-start: starts the thread when it does not exist. Contract stub. */
export async function sendThreadTurn(
  _agents: AgentClient,
  _start: ThreadStartInit,
  _turn: ThreadTurnRequest,
): Promise<ThreadTurnReceipt> {
  throw new Error('sendThreadTurn: not built yet (issue 52)');
}

/** The thread's kept turns; undefined when no such thread exists. Contract stub. */
export async function readThread(_agents: AgentClient, _workflowId: string): Promise<ThreadView | undefined> {
  throw new Error('readThread: not built yet (issue 52)');
}
