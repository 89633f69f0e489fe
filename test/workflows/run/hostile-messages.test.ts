import { Client, Connection, WorkflowUpdateFailedError, makeGrpcRetryInterceptor } from '@temporalio/client';
import { describe, expect, inject, it } from 'vitest';
import { useTool } from '../../../src/activities/models/scripted-model';
import type { AgentResult, ReasoningChain, ReasoningStep } from '../../../src/domain';
import { CancelRequestSchema } from '../../../src/workflows/messages';
import { HOSTILE_PAYLOADS } from '../../helpers/hostile-payloads';
import { ScriptBook, gateTool, sharedWorker, waitFor } from '../../helpers/people-helpers';
import { scriptedInput } from '../../helpers/scripted-input';

// Messages are sent by NAME with the raw Temporal client, as anyone who can reach the server can.
const book = new ScriptBook();
// The first test sends about a hundred messages while the gate holds its run: 25-31 s on the
// loaded 2-core CI machine, past the gate's default 30 s (the run would finish under the fuzzing).
const gates = gateTool({ timeoutMs: 120_000 });
const shared = sharedWorker(() => [gates.tool], book.provider);

const wire = HOSTILE_PAYLOADS.filter((p) => p.wire);
const thoughtOf = (s: ReasoningStep) => (s.type === 'thinking' ? s.thought : '');

/** Starts a run that holds in a gated tool, then finishes with `done`; returns its raw handle once the tool runs. */
async function heldRun(task: string, gate: string) {
  book.script(task, [
    { content: [useTool('wait_for_gate', { gate })] },
    { content: [useTool('finish', { result: 'done' })] },
  ]);
  const started = await shared.h.agents.start(scriptedInput(task));
  await waitFor(`gate ${gate} to start`, () => gates.started(gate));
  return shared.env.client.workflow.getHandle(started.workflowId);
}

/** gRPC's status code for a message over the server's size limit. */
const GRPC_RESOURCE_EXHAUSTED = 8;

/** Runs `send` with a client on its own connection that gives up on the first refusal. */
async function withoutRetries<T>(send: (client: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({
    address: inject('temporalAddress'),
    interceptors: [makeGrpcRetryInterceptor({ delayFunction: () => 0, retryableDecider: () => false })],
  });
  try {
    return await send(new Client({ connection, namespace: inject('temporalNamespace') }));
  } finally {
    await connection.close();
  }
}

describe('hostile messages on a live run', () => {
  it('every signal, update and query with a hostile payload leaves the run healthy, and it finishes', async () => {
    const handle = await heldRun('hostile: fuzzed messages', 'fuzz');
    for (const { name, value } of wire) {
      const payload = value();
      // A payload that happens to be a valid cancel (an empty object) would end the run: that is not hostile.
      if (!CancelRequestSchema.safeParse(payload).success) await handle.signal('cancel', payload);
      await handle.signal('steer', payload);
      await handle.signal('subAgentApprovals', payload);
      for (const update of ['resolveStall', 'approveToolCall', 'answer']) {
        await expect(
          handle.executeUpdate(update, { args: [payload] }),
          `${update} with ${name}`,
        ).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
      }
    }
    // Payloads no JSON client would write, as raw bytes: 500,000 levels of nesting, bytes that are
    // not JSON, an encoding no converter knows. The SDK decodes a signal before any handler runs.
    const raw = (signalName: string, data: string, encoding = 'json/plain') =>
      shared.env.client.workflowService.signalWorkflowExecution({
        namespace: shared.env.client.options.namespace,
        workflowExecution: { workflowId: handle.workflowId },
        signalName,
        identity: 'hostile-test',
        input: { payloads: [{ metadata: { encoding: Buffer.from(encoding) }, data: Buffer.from(data) }] },
      });
    for (const signalName of ['cancel', 'steer', 'subAgentApprovals']) {
      await raw(signalName, '['.repeat(500_000) + ']'.repeat(500_000));
      await raw(signalName, '{"text": not json');
      await raw(signalName, '{"text":"hi"}', 'thoughtline/unknown');
    }
    // Queries: no argument or null reads the default view; an argument that is not a role is a clear error.
    expect((await handle.query<ReasoningChain, [unknown]>('chain', null)).steps.length).toBeGreaterThan(0);
    await expect(handle.query<unknown, [unknown]>('chain', 42)).rejects.toThrow(/viewer role/i);
    await expect(handle.query<unknown, [unknown]>('chain', { role: 'developer' })).rejects.toThrow(/viewer role/i);
    await expect(handle.query<unknown, [unknown]>('chain', 'x'.repeat(100_000))).rejects.toThrow(/Unknown viewer role/);
    expect(await handle.query('status')).toMatchObject({ status: expect.any(String) });

    gates.release('fuzz');
    const result = (await handle.result()) as AgentResult;
    expect(result).toMatchObject({ success: true, finalAnswer: 'done', terminationReason: 'success' });
    const refused = result.chain.steps.map(thoughtOf).filter((t: string) => t.startsWith('Refused a "'));
    expect(refused.length).toBeGreaterThan(0);
    // No history event of a workflow task failure: nothing the messages did failed a task.
    const history = await handle.fetchHistory();
    expect(history.events!.some((e) => e.workflowTaskFailedEventAttributes)).toBe(false);
    // About 35 s on an idle 2-core machine (each message replays the whole history); over 60 s on a loaded one.
  }, 180_000);

  it('a cancel with a null payload is refused, and a valid cancel afterwards still cancels', async () => {
    const handle = await heldRun('hostile: null cancel then a real one', 'null-cancel');
    await handle.signal('cancel', null);
    await handle.signal('cancel', { reason: { toString: 1, valueOf: 1 } });
    await waitFor(
      'the refusals in the chain',
      async () =>
        (await handle.query<ReasoningChain>('chain')).steps.filter((s: ReasoningStep) =>
          thoughtOf(s).startsWith('Refused a "cancel"'),
        ).length === 2,
    );
    await handle.signal('cancel', { reason: 'enough', by: 'alice' });
    gates.release('null-cancel');
    const result = (await handle.result()) as AgentResult;
    expect(result.terminationReason).toBe('cancelled');
    expect(result.chain.steps.map(thoughtOf)).toContain(
      'Cancel requested (enough, by alice); finishing the current step, then summarising.',
    );
  });

  it('a 5 MB steer is refused by the server (the client gets the error) and the run is unaffected', async () => {
    const handle = await heldRun('hostile: 5 MB steer', 'big');
    // Just under the payload limit reaches the run and is cut to one instruction's length.
    await handle.signal('steer', { text: 'y'.repeat(1_900_000), by: 'mallory' });
    expect(await handle.query('status')).toMatchObject({ steeringQueued: 1 });
    // Over the server's 4 MB message limit: refused. Sent through a connection that does not retry,
    // so the refusal comes back at once (the default client retries it for about 40 s).
    await expect(
      withoutRetries((client) =>
        client.workflow
          .getHandle(handle.workflowId)
          .signal('steer', { text: 'x'.repeat(5 * 1024 * 1024), by: 'mallory' }),
      ),
    ).rejects.toMatchObject({
      cause: { code: GRPC_RESOURCE_EXHAUSTED, message: expect.stringMatching(/larger than max/) },
    });
    gates.release('big');
    const result = (await handle.result()) as AgentResult;
    expect(result).toMatchObject({ success: true, finalAnswer: 'done', terminationReason: 'success' });
    const steer = result.chain.steps.filter((s: ReasoningStep) => s.fromPerson?.kind === 'steer');
    expect(steer).toHaveLength(1);
    expect(thoughtOf(steer[0]!).length).toBeLessThan(4_100);
    const history = await handle.fetchHistory();
    expect(history.events!.some((e) => e.workflowTaskFailedEventAttributes)).toBe(false);
  });
});
