import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { defineSignal } from '@temporalio/workflow';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { connectClient } from '../../src/connection';
import { startTestServer, type TestServer } from '../../src/dev-server';
import { statusQuery } from '../../src/workflows/messages';
import { defineTool } from '../../src/tools/define-tool';
import { pollFor } from '../helpers/approval-helpers';
import { createHarness, type AgentHarness, type TestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { HeldScripts, openEvents, startEventsServer, type OpenStream } from './events-harness';

/**
 * Temporal holds a run's queries while one of its workflow tasks is scheduled or running, but at
 * most history.MaxBufferedQueryCount of them (1 unless the server raises it; Thoughtline's own
 * servers do): this file runs on a server of its own with Temporal's default.
 */
const chargeCard = defineTool({
  name: 'charge_card',
  description: 'Charges a card',
  input: z.object({ amount: z.number() }),
  approval: 'always',
  execute: ({ amount }) => ({ amount, status: 'charged' }),
});
/** No handler: the workflow buffers it; sent while no worker runs, it leaves a workflow task scheduled. */
const nudge = defineSignal('eventsQueryBufferTestNudge');

let server: TestServer;
let env: TestEnv & { close(): Promise<void> };
/** Temporal's own Connection, as a user passing theirs would: its retry waits 1.36-2.04 s after RESOURCE_EXHAUSTED. */
let temporalConnection: Connection;
const book = new HeldScripts();
/** `stops`: a worker that will stop with runs open keeps no sticky queue, so their next task goes to whichever worker polls next. */
const harness = (opts: { stops: boolean; taskQueue?: string }): Promise<AgentHarness> =>
  createHarness(env, {
    tools: [...testTools().tools, chargeCard],
    models: { scripted: book.provider },
    replayEveryTask: opts.stops,
    ...(opts.taskQueue ? { taskQueue: opts.taskQueue } : {}),
  });

beforeAll(async () => {
  server = await startTestServer({ dynamicConfig: ['history.MaxBufferedQueryCount=1'] });
  const connection = (temporalConnection = await Connection.connect({ address: server.address }));
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  env = {
    client: new Client({ connection, namespace: server.namespace }),
    nativeConnection,
    namespace: server.namespace,
    close: async () => {
      await connection.close();
      await nativeConnection.close();
    },
  };
});

afterAll(async () => {
  await env?.close();
  await server?.stop();
});

/** When the workflow task that took the nudge signal ended, by the server's clock (this machine's). */
async function taskEndedAfterNudge(handle: WorkflowHandle): Promise<number> {
  const events = (await handle.fetchHistory()).events ?? [];
  const signalled = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes?.signalName === nudge.name);
  const ended = optionalTsToMs(events.slice(signalled).find((e) => e.workflowTaskCompletedEventAttributes)?.eventTime);
  if (signalled < 0 || ended === undefined) throw new Error('no workflow task ended after the nudge');
  return ended;
}

describe("a run's queries on a server that buffers one", () => {
  it("refuses a second query during a workflow task with RESOURCE_EXHAUSTED; Temporal's client answers it 1.4-2 s late, Thoughtline's within milliseconds of the task's end", async () => {
    const h = await harness({ stops: false });
    // Started with no worker: its first workflow task stays scheduled, and queries wait for it.
    const run = await book.start(h.agents, 'refused query', [{ content: [say('Final answer: done.')] }]);
    const bare = await Connection.connect({ address: server.address, interceptors: [] });
    const fast = await connectClient({ address: server.address });
    try {
      const handleOn = (connection: Connection) =>
        new Client({ connection, namespace: server.namespace }).workflow.getHandle(run.id);
      const held = handleOn(bare).query(statusQuery);
      await new Promise((r) => setTimeout(r, 200));
      const refused = await handleOn(bare)
        .query(statusQuery)
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(refused).toBeDefined();
      const cause = ((refused as { cause?: unknown }).cause ?? refused) as { code?: number; details?: string };
      expect(cause.code).toBe(8);
      expect(cause.details).toMatch(/consistent query buffer is full/);

      const asked = Date.now();
      const timed = (p: Promise<unknown>) => p.then(() => Date.now());
      const temporalRetry = timed(handleOn(temporalConnection).query(statusQuery));
      const thoughtlineRetry = timed(handleOn(fast).query(statusQuery));
      const running = h.worker.run();
      try {
        // The held query is answered when the task ends: the refused ones can go from then on.
        const taskEnded = await timed(held);
        const [temporalAt, thoughtlineAt] = await Promise.all([temporalRetry, thoughtlineRetry]);
        expect(temporalAt - asked).toBeGreaterThanOrEqual(1_300);
        expect(temporalAt - taskEnded).toBeGreaterThan(0);
        expect(thoughtlineAt - taskEnded).toBeLessThan(600);
        await run.handle.result();
      } finally {
        h.worker.shutdown();
        await running;
      }
    } finally {
      await bare.close();
      await fast.close();
    }
  });

  it("gives every watcher of a busy run its catch-up within 0.7 s of the task's end, in three views at once (one query at a time)", async () => {
    const first = await harness({ stops: true });
    let running = first.worker.run();
    const run = await book.start(first.agents, 'busy run', [
      { content: [say('Charging.'), useTool('charge_card', { amount: 3 })] },
      { content: [say('Final answer: charged.')] },
    ]);
    await pollFor('a pending approval', async () =>
      (await first.agents.pendingApprovals(run.id)).length === 1 ? true : undefined,
    );
    first.worker.shutdown();
    await running;
    const events = await startEventsServer(first.agents);
    const streams: OpenStream[] = [];
    let second: AgentHarness | undefined;
    try {
      // A workflow task scheduled and no worker to take it: every query of the run waits for it.
      await run.handle.signal(nudge);
      for (const token of ['auditor-token', 'dev-token', 'user-token'])
        streams.push(await openEvents(events, run.id, { token }));
      // Long enough that the old stream's refused reads were refused again at their first retry.
      await new Promise((r) => setTimeout(r, 2_200));
      expect(streams.map((s) => s.messages.filter((m) => m.event === 'status').length)).toEqual([0, 0, 0]);
      second = await harness({ stops: false, taskQueue: first.taskQueue });
      running = second.worker.run();
      const caughtUp = await Promise.all(
        streams.map((s) =>
          s.waitFor('the catch-up status', (m) => m.event === 'status', 15_000).then(() => Date.now()),
        ),
      );
      const taskEnded = await taskEndedAfterNudge(run.handle);
      const late = caughtUp.map((at) => Math.round(at - taskEnded));
      expect(Math.max(...late), `each watcher's status came ${late.join(', ')} ms after the task ended`).toBeLessThan(
        700,
      );
      for (const s of streams)
        expect(s.messages.find((m) => m.event === 'status')!.data.status.pendingApprovals).toHaveLength(1);
    } finally {
      for (const s of streams) s.close();
      await events.close();
      await run.handle.terminate('test done').catch(() => undefined);
      second?.worker.shutdown();
      await running;
    }
  });
});
