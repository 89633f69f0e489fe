import { Client } from '@temporalio/client';
import { AgentClient, type WatchEvent } from '../../src/client/agent-client';
import type { AgentResult } from '../../src/domain';
import type { TestEnv } from './temporal-env';

/**
 * Follows a run from a client of its own, as another process would (nothing shared with the
 * worker, no server): every event `AgentClient.follow` yields, polling every 100 ms, and the result.
 */
export async function followElsewhere(
  env: TestEnv,
  taskQueue: string,
  workflowId: string,
): Promise<{ events: WatchEvent[]; result: AgentResult }> {
  const watcher = new AgentClient({
    client: new Client({ connection: env.client.connection, namespace: env.client.options.namespace }),
    taskQueue,
  });
  const events: WatchEvent[] = [];
  const followed = watcher.follow(workflowId, { pollMs: 100 });
  let next = await followed.next();
  for (; !next.done; next = await followed.next()) events.push(next.value);
  return { events, result: next.value };
}
