import { randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';

const PROBE_TASK_QUEUE = 'thoughtline-server-check';

/**
 * Starts a workflow no worker serves in `namespace`, then deletes it: proof that the server can
 * write, which describing a namespace is not (a dev server whose database folder was deleted
 * still describes its namespaces but times out on every start). Throws when the start fails.
 * For local dev servers only: it leaves nothing behind, but it writes.
 */
export async function checkCanStartWorkflow(address: string, namespace: string, timeoutMs = 5000): Promise<void> {
  const connection = Connection.lazy({ address, connectTimeout: 2000 });
  try {
    await connection.ensureConnected();
    const workflowId = `thoughtline-server-check-${randomUUID()}`;
    const { runId } = await connection.withDeadline(Date.now() + timeoutMs, () =>
      connection.workflowService.startWorkflowExecution({
        namespace,
        workflowId,
        workflowType: { name: 'thoughtlineServerCheck' },
        taskQueue: { name: PROBE_TASK_QUEUE },
        // A safety net should the delete below fail: the probe times out on its own.
        workflowRunTimeout: msToTs('1 minute'),
        identity: 'thoughtline server check',
        requestId: randomUUID(),
      }),
    );
    // Best effort: a server that started the probe works, whatever the delete says.
    await connection
      .withDeadline(Date.now() + timeoutMs, () =>
        connection.workflowService.deleteWorkflowExecution({ namespace, workflowExecution: { workflowId, runId } }),
      )
      .catch(() => {});
  } finally {
    await connection.close();
  }
}
