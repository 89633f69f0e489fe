import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { pollFor } from '../helpers/approval-helpers';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { openEvents, startEventsServer, TENANT_CALLER } from './events-harness';

/** Temporal calls made through a connection and not yet settled (gRPC retries included). */
function countCalls(connection: Connection): { started: () => number; unsettled: () => number } {
  let started = 0;
  let settled = 0;
  const service = connection.workflowService as unknown as Record<string, unknown>;
  const counted: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(service)) {
    if (typeof method !== 'function') continue;
    counted[name] = (...args: unknown[]) => {
      started += 1;
      const call = Promise.resolve((method as (...a: unknown[]) => Promise<unknown>).apply(service, args));
      const settle = (): void => void (settled += 1);
      call.then(settle, settle);
      return call;
    };
  }
  (connection as unknown as { workflowService: unknown }).workflowService = counted;
  return { started: () => started, unsettled: () => started - settled };
}

let connection: Connection;
let agents: AgentClient;

beforeAll(async () => {
  connection = await Connection.connect({ address: inject('temporalAddress') });
  // No worker polls this queue: the stream's reads of the run wait for their deadline.
  agents = new AgentClient({
    client: new Client({ connection, namespace: inject('temporalNamespace') }),
    taskQueue: `nobody-${randomUUID()}`,
  });
});

afterAll(async () => connection?.close());

it('closing the events server waits for the Temporal reads its streams started and starts none after, so the connection can close next', async () => {
  const handle = await agents.start({ task: 'nobody runs this', model: SCRIPTED_MODEL, caller: TENANT_CALLER });
  const server = await startEventsServer(agents, { safetyPollMs: 100, readTimeoutMs: 1_500 });
  const calls = countCalls(connection);
  const stream = await openEvents(server, handle.workflowId, { token: 'dev-token' });
  expect(stream.status).toBe(200);
  await pollFor('a read under way', () => (calls.unsettled() > 0 ? true : undefined));

  await server.close();
  expect(calls.unsettled()).toBe(0);
  const after = calls.started();
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(calls.started()).toBe(after);
  await handle.terminate('test done');
});
