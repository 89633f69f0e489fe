import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../src/activities/models/scripted-model';
import { AgentClient, type WatchEvent } from '../../src/client/agent-client';
import { PushStreamError } from '../../src/client/follow/push-stream-error';
import type { AgentResult } from '../../src/domain';
import { pollFor } from '../helpers/approval-helpers';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { HeldScripts, lookupTurns, startEventsServer, type EventsServer } from '../server/events-harness';

const env = useTestEnv();
const book = new HeldScripts();
let h: AgentHarness;
let running: Promise<void>;
let server: EventsServer;

beforeAll(async () => {
  h = await createHarness(env, { tools: testTools().tools, models: { scripted: book.provider } });
  running = h.worker.run();
  server = await startEventsServer(h.agents);
});

afterAll(async () => {
  await server?.close();
  h?.worker.shutdown();
  await running;
});

const lookups = lookupTurns;
const start = (task: string, turns: ScriptedTurn[], free = Infinity) => book.start(h.agents, task, turns, free);

const pushClient = (url: string, token = 'dev-token') =>
  new AgentClient({ client: env.client, taskQueue: h.taskQueue, server: { url, token } });

/** Everything a follower yields, then its result. */
async function collect(
  events: AsyncGenerator<WatchEvent, AgentResult>,
  onEvent?: (e: WatchEvent) => void,
): Promise<{ events: WatchEvent[]; result: AgentResult }> {
  const seen: WatchEvent[] = [];
  let next = await events.next();
  for (; !next.done; next = await events.next()) {
    seen.push(next.value);
    onEvent?.(next.value);
  }
  return { events: seen, result: next.value };
}

const steps = (events: readonly WatchEvent[]) => events.flatMap((e) => (e.type === 'step' ? [e.step] : []));

describe('AgentClient.follow with a server: the push stream', () => {
  it('yields the same steps as polling follow for the same run, and the same result', async () => {
    const run = await start('push and poll', lookups(3));
    const [pushed, polled] = await Promise.all([
      collect(pushClient(server.url).follow(run.id, { live: false })),
      collect(h.agents.follow(run.id, { live: false, pollMs: 100 })),
    ]);
    expect(steps(pushed.events).length).toBeGreaterThan(8);
    expect(steps(pushed.events)).toEqual(steps(polled.events));
    expect(pushed.result).toEqual(polled.result);
    expect(pushed.result.success).toBe(true);
  });

  it('maps text deltas to live events', async () => {
    const run = await start('push live text', lookups(1), 1);
    const events = pushClient(server.url).follow(run.id);
    const live: WatchEvent[] = [];
    let steps = 0;
    const following = collect(events, (e) => {
      if (e.type === 'live') live.push(e);
      if (e.type === 'step') steps += 1;
    });
    await pollFor('the run to wait', () => (run.waiting() === 1 ? true : undefined));
    await pollFor('the watcher to join', () => (server.route.watcherCount() > 0 ? true : undefined));
    // Live text is shown once the stream knows the model call it comes from (issue 63): its steps first.
    // The chain as read may not hold the model call's step yet: wait until it does.
    const held = await pollFor('the model call step', async () => {
      const chain = await h.agents.chain(run.id, 'developer');
      const call = chain.steps.some((s) => s.type === 'tool_call' && s.toolCall.toolType === 'llm');
      return call ? chain.steps.length : undefined;
    });
    await pollFor('the held steps', () => (steps === held ? true : undefined));
    // The stream learns the model call from its own read of the chain, which may trail the steps
    // this follower was sent; a reply whose call it did not know yet shows nothing (it fails
    // closed). So the delta goes again as the next attempt's until it is shown.
    let attempt = 1;
    await pollFor(
      'the live delta',
      () => {
        if (live.length > 0) return true;
        server.bus.publish({
          type: 'text_delta',
          runId: run.id,
          chainStatus: 'thinking',
          stepNumber: 1,
          activityId: '9',
          attempt: ++attempt,
          kind: 'thinking',
          offset: 0,
          // A word goes out once it ends (the stream holds a word back until then, issue 63).
          text: 'hmm ',
        });
        return undefined;
      },
      15_000,
      300,
    );
    run.release();
    await following;
    expect(live.length).toBeGreaterThan(0);
    for (const event of live)
      expect(event).toMatchObject({ type: 'live', activityId: '9', kind: 'thinking', text: 'hmm ' });
  });

  it('reconnects after the server restarts, with Last-Event-ID: every step once', async () => {
    const run = await start('push restart', lookups(3), 1);
    const first = await startEventsServer(h.agents);
    const port = Number(new URL(first.url).port);
    let steady = 0;
    const following = collect(pushClient(first.url).follow(run.id, { live: false }), (e) => {
      if (e.type === 'step') steady += 1;
    });
    await pollFor('the run to wait', () => (run.waiting() === 1 ? true : undefined));
    // The chain as read may not hold the model call's step yet: wait until it does.
    const held = await pollFor('the model call step', async () => {
      const chain = await h.agents.chain(run.id, 'developer');
      const call = chain.steps.some((s) => s.type === 'tool_call' && s.toolCall.toolType === 'llm');
      return call ? chain.steps.length : undefined;
    });
    await pollFor('the held steps', () => (steady === held ? true : undefined));
    await first.close();
    const second = await startEventsServer(h.agents, {}, undefined, port);
    try {
      run.release();
      const { events, result } = await following;
      expect(steps(events)).toEqual((await h.agents.chain(run.id, 'developer')).steps);
      expect(steps(events).length).toBeGreaterThan(held);
      expect(result.success).toBe(true);
    } finally {
      await second.close();
    }
  });

  it("a refusal ends following at once with the server's reason", async () => {
    const run = await start('push refused', lookups(0));
    await run.handle.result();
    await expect(collect(pushClient(server.url, 'nobody').follow(run.id))).rejects.toThrow(PushStreamError);
    await expect(collect(pushClient(server.url, 'globex-token').follow(run.id))).rejects.toThrow(/not_found/);
  });
});
