import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { say, useTool, type ScriptedTurn } from '../../src/activities/models/scripted-model';
import type { RunEvent } from '../../src/domain/run/run-event';
import { defineTool } from '../../src/tools/define-tool';
import { pollFor } from '../helpers/approval-helpers';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import {
  HeldScripts,
  lookupTurns,
  openEvents,
  startEventsServer,
  stepNumbers,
  type EventsServer,
  type SseMessage,
} from './events-harness';

const CARD = '4111111111111111';
const chargeCard = defineTool({
  name: 'charge_card',
  description: 'Charges a card',
  input: z.object({ card: z.string(), amount: z.number() }),
  sensitiveFields: ['card'],
  approval: 'always',
  execute: ({ card, amount }) => ({ card, amount, status: 'charged' }),
});

const env = useTestEnv();
const book = new HeldScripts();
let h: AgentHarness;
let running: Promise<void>;
let server: EventsServer;

beforeAll(async () => {
  h = await createHarness(env, {
    tools: [...testTools().tools, chargeCard],
    models: { scripted: book.provider },
  });
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

const stepsOf = (messages: readonly SseMessage[]) => messages.filter((m) => m.event === 'step').map((m) => m.data.step);

/** Every id as the contract says: a step's is its number, any other event's `<step>.<seq>`. */
function expectContractIds(messages: readonly SseMessage[]): void {
  for (const m of messages)
    expect(m.id).toMatch(m.event === 'step' ? new RegExp(`^${m.data.stepNumber}$`) : /^\d+\.\d+$/);
}

describe('GET /v1/runs/:id/events', () => {
  it('follows a run to `end` with every step once, in order, as the chain query shows it (no publisher: the safety net)', async () => {
    const run = await start('follow to end', lookups(3));
    const stream = await openEvents(server, run.id, { token: 'dev-token' });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    const end = await stream.waitFor('end', (m) => m.event === 'end');
    await stream.ended;
    const chain = await h.agents.chain(run.id, 'developer');
    expect(chain.steps.length).toBeGreaterThan(8);
    expect(stepsOf(stream.messages)).toEqual(chain.steps);
    expect(end.data).toMatchObject({
      type: 'end',
      runId: run.id,
      outcome: 'completed',
      stepNumber: chain.steps.at(-1)!.stepNumber,
    });
    expect(stream.messages.filter((m) => m.event === 'status').length).toBeGreaterThanOrEqual(1);
    expect(stream.messages.at(-1)!.event).toBe('end');
    expectContractIds(stream.messages);
    await pollFor('the run stream to close', () => (server.route.runCount() === 0 ? true : undefined));
  });

  it('resumes with Last-Event-ID ("7" and "7.3" forms) or ?after=: every later step once, nothing before', async () => {
    const run = await start('resume mid-run', lookups(4), 2);
    const first = await openEvents(server, run.id, { token: 'dev-token' });
    await pollFor('the run to wait on its third model call', () => (run.waiting() === 1 ? true : undefined));
    const held = await h.agents.chain(run.id, 'developer');
    await first.waitFor(
      `step ${held.steps.at(-1)!.stepNumber}`,
      (m) => m.event === 'step' && m.data.stepNumber === held.steps.at(-1)!.stepNumber,
    );
    first.close();
    const late = await openEvents(server, run.id, { token: 'dev-token' });
    const status = await late.waitFor('status', (m) => m.event === 'status');
    late.close();
    const mid = stepNumbers(first.messages)[2]!;
    const byStep = await openEvents(server, run.id, { token: 'dev-token', lastEventId: String(mid) });
    const byStatus = await openEvents(server, run.id, { token: 'dev-token', lastEventId: status.id });
    const byQuery = await openEvents(server, run.id, { token: 'dev-token', query: `after=${mid}` });
    await byStep.waitFor('status after catch-up', (m) => m.event === 'status');
    run.release();
    await Promise.all([byStep, byStatus, byQuery].map((s) => s.waitFor('end', (m) => m.event === 'end')));
    const all = (await h.agents.chain(run.id, 'developer')).steps;
    const after = (n: number) => all.filter((s) => s.stepNumber > n);
    expect(stepsOf(byStep.messages)).toEqual(after(mid));
    expect(stepsOf(byQuery.messages)).toEqual(after(mid));
    const statusStep = Number(status.id.split('.')[0]);
    expect(statusStep).toBeGreaterThan(mid);
    expect(stepsOf(byStatus.messages)).toEqual(after(statusStep));
    for (const s of [byStep, byStatus, byQuery]) expectContractIds(s.messages);
  });

  it('a new server (a restart: a fresh hub) resumes from the durable chain with what the client missed', async () => {
    const run = await start('restart mid-run', lookups(3), 1);
    const before = await startEventsServer(h.agents);
    const first = await openEvents(before, run.id, { token: 'dev-token' });
    await pollFor('the run to wait on its second model call', () => (run.waiting() === 1 ? true : undefined));
    const last = (await h.agents.chain(run.id, 'developer')).steps.at(-1)!.stepNumber;
    await first.waitFor(`step ${last}`, (m) => m.event === 'step' && m.data.stepNumber === last);
    const lastId = first.messages.filter((m) => m.event === 'step').at(-1)!.id;
    await before.close();
    await first.ended;
    const after = await startEventsServer(h.agents);
    try {
      const resumed = await openEvents(after, run.id, { token: 'dev-token', lastEventId: lastId });
      run.release();
      await resumed.waitFor('end', (m) => m.event === 'end');
      const all = (await h.agents.chain(run.id, 'developer')).steps;
      expect([...stepsOf(first.messages), ...stepsOf(resumed.messages)]).toEqual(all);
      expect(stepsOf(resumed.messages).length).toBeGreaterThan(0);
    } finally {
      await after.close();
    }
  });

  it('bus events lost, repeated and out of order: each step once, in order; a published `end` ends the stream', async () => {
    const quiet = await startEventsServer(h.agents, { safetyPollMs: 3_600_000 });
    try {
      const run = await start('bus driven', lookups(3), 1);
      const stream = await openEvents(quiet, run.id, { token: 'dev-token' });
      await pollFor('the run to wait', () => (run.waiting() === 1 ? true : undefined));
      await stream.waitFor('status', (m) => m.event === 'status');
      const seen = Math.max(0, ...stepNumbers(stream.messages));
      run.release();
      const result = await run.handle.result();
      const raw = result.chain.steps.filter((s) => s.stepNumber > seen);
      expect(raw.length).toBeGreaterThan(4);
      const event = (step: (typeof raw)[number]): RunEvent => ({
        type: 'step',
        runId: run.id,
        chainStatus: 'thinking',
        stepNumber: step.stepNumber,
        step,
      });
      // Lost: the second; repeated: every one; swapped: the fourth and fifth.
      const order = [raw[0]!, raw[0]!, raw[2]!, raw[4]!, raw[3]!, raw[3]!, ...raw.slice(5), raw[2]!];
      for (const step of order) quiet.bus.publish(event(step));
      quiet.bus.publish({
        type: 'end',
        runId: run.id,
        chainStatus: 'completed',
        stepNumber: raw.at(-1)!.stepNumber,
        outcome: 'completed',
      });
      await stream.waitFor('end', (m) => m.event === 'end');
      const developer = (await h.agents.chain(run.id, 'developer')).steps;
      expect(stepsOf(stream.messages)).toEqual(developer);
      expect(stepNumbers(stream.messages)).toEqual([...new Set(stepNumbers(stream.messages))]);
    } finally {
      await quiet.close();
    }
  });

  describe('a run waiting for an approval', () => {
    let runId: string;
    beforeAll(async () => {
      const run = await start('charge and wait', [
        { content: [say('Charging.'), useTool('charge_card', { card: CARD, amount: 3 })] },
        { content: [say('Final answer: charged.')] },
      ]);
      runId = run.id;
      await pollFor('a pending approval', async () =>
        (await h.agents.pendingApprovals(runId)).length === 1 ? true : undefined,
      );
    });
    afterAll(async () => {
      await h.agents.getHandle(runId).terminate('test done');
    });

    it('an end user gets no model text and approvals without the sensitive field; a developer gets the text', async () => {
      const dev = await openEvents(server, runId, { token: 'dev-token' });
      const user = await openEvents(server, runId, { token: 'user-token' });
      const auditor = await openEvents(server, runId, { token: 'auditor-token' });
      const statuses = await Promise.all(
        [dev, user, auditor].map((s) => s.waitFor('status', (m) => m.event === 'status')),
      );
      expect(statuses.map((m) => m.data.status.pendingApprovals.length)).toEqual([1, 1, 1]);
      expect(JSON.stringify(statuses[0]!.data)).not.toContain(CARD);
      expect(JSON.stringify(statuses[1]!.data)).not.toContain(CARD);
      expect(JSON.stringify(statuses[2]!.data)).toContain(CARD);
      const [record] = await h.agents.pendingApprovals(runId, 'auditor');
      const base = { runId, chainStatus: 'waiting', stepNumber: 1 } as const;
      for (let i = 0; i < 3; i++)
        server.bus.publish({
          ...base,
          type: 'text_delta',
          activityId: '7',
          attempt: 1,
          kind: 'text',
          offset: i * 5,
          text: `tok${i} `,
        });
      server.bus.publish({ ...base, type: 'approval', approval: record! });
      server.bus.publish({
        ...base,
        type: 'text_delta',
        activityId: '7',
        attempt: 1,
        kind: 'text',
        offset: 15,
        text: 'last',
      });
      // A word is held until it ends: here, when the next model call streams.
      server.bus.publish({
        ...base,
        type: 'text_delta',
        activityId: '8',
        attempt: 1,
        kind: 'text',
        offset: 0,
        text: 'next ',
      });
      await Promise.all(
        [dev, auditor].map((s) =>
          s.waitFor('the next reply', (m) => m.event === 'text_delta' && m.data.text === 'next '),
        ),
      );
      await user.waitFor('the approval', (m) => m.event === 'approval');
      expect(
        dev.messages
          .filter((m) => m.event === 'text_delta' && m.data.activityId === '7')
          .map((m) => m.data.text)
          .join(''),
      ).toBe('tok0 tok1 tok2 last');
      expect(user.messages.filter((m) => m.event === 'text_delta')).toEqual([]);
      const approvals = [dev, user, auditor].map((s) => s.messages.find((m) => m.event === 'approval')!.data.approval);
      expect(approvals[0].arguments.card).toBe('[SENSITIVE]');
      expect(JSON.stringify(approvals[1])).not.toContain(CARD);
      expect(approvals[2].arguments.card).toBe(CARD);
      for (const s of [dev, user, auditor]) s.close();
    });

    it('a client that never reads is dropped while another watcher receives everything', async () => {
      const server = await startEventsServer(h.agents, { drainTimeoutMs: 2_000 });
      const slow = net.connect(Number(new URL(server.url).port), '127.0.0.1');
      await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
      slow.pause();
      slow.write(`GET /v1/runs/${runId}/events HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer dev-token\r\n\r\n`);
      const reader = await openEvents(server, runId, { token: 'dev-token' });
      await reader.waitFor('status', (m) => m.event === 'status');
      await pollFor('both watchers to join', () => (server.route.watcherCount() === 2 ? true : undefined));
      const chunk = 'x'.repeat(64 * 1024);
      let offset = 0;
      for (let i = 0; i < 300; i++) {
        const text = `${i}:${chunk}`;
        server.bus.publish({
          type: 'text_delta',
          runId,
          chainStatus: 'waiting',
          stepNumber: 1,
          activityId: 'big',
          attempt: 1,
          kind: 'text',
          offset,
          text,
        });
        offset += text.length;
      }
      await reader.waitFor('the 300th delta', (m) => m.event === 'text_delta' && m.data.text.startsWith('299:'));
      expect(reader.messages.filter((m) => m.event === 'text_delta' && m.data.activityId === 'big')).toHaveLength(300);
      await pollFor('the reader-less watcher to be dropped', () =>
        server.route.watcherCount() === 1 ? true : undefined,
      );
      // The reader was never held up: it had every delta, and it is the one still connected.
      expect(reader.messages.some((m) => m.event === 'end')).toBe(false);
      reader.close();
      slow.destroy();
      await server.close();
    });
  });

  describe('refused before any byte is streamed', () => {
    it('401 without a valid token, with WWW-Authenticate', async () => {
      for (const token of [undefined, 'nobody']) {
        const s = await openEvents(server, 'agent-any', token ? { token } : {});
        expect(s.status).toBe(401);
        expect(s.headers.get('www-authenticate')).toBe('Bearer');
        expect(s.json).toMatchObject({ error: { code: 'unauthenticated' } });
      }
    });

    it("404 for an unknown run and for another tenant's run; 403 for a view the roles do not allow", async () => {
      const run = await start('tenant check', lookups(0));
      await run.handle.result();
      expect((await openEvents(server, 'agent-no-such-run', { token: 'dev-token' })).status).toBe(404);
      const other = await openEvents(server, run.id, { token: 'globex-token' });
      expect(other.status).toBe(404);
      expect(other.json).toMatchObject({ error: { code: 'not_found' } });
      const wide = await openEvents(server, run.id, { token: 'user-token', query: 'view=auditor' });
      expect(wide.status).toBe(403);
      const ok = await openEvents(server, run.id, { token: 'user-token', query: 'view=end_user' });
      expect(ok.status).toBe(200);
      await ok.waitFor('end', (m) => m.event === 'end');
    });

    it('400 for a resume point it cannot read, in the header or the query, and for an empty run id', async () => {
      for (const lastEventId of ['abc', '-1', '7.', '1e3', '7.3.1']) {
        const s = await openEvents(server, 'agent-any', { token: 'dev-token', lastEventId });
        expect(s.status).toBe(400);
        expect(s.json).toMatchObject({ error: { code: 'bad_request' } });
      }
      expect((await openEvents(server, 'agent-any', { token: 'dev-token', query: 'after=x' })).status).toBe(400);
      // An empty run id is the caller's mistake, not a server failure (Temporal refuses to describe it).
      const empty = await openEvents(server, '', { token: 'dev-token' });
      expect(empty.status).toBe(400);
      expect(empty.json).toMatchObject({ error: { code: 'bad_request', issues: [{ path: ['id'] }] } });
    });

    it("429 past the streams one identity may hold, and past one tenant's; another tenant and the server still have room (issue 43)", async () => {
      const capped = await startEventsServer(h.agents, { maxWatchersPerIdentity: 2, maxWatchersPerTenant: 3 });
      const open: Array<{ close(): void }> = [];
      try {
        const run = await start('stream caps', lookups(1), 0);
        const globex = await h.agents.start({
          task: 'stream caps globex',
          model: { provider: 'scripted', model: 'scripted-model' },
          caller: { id: 'gil', roles: ['developer'], tenant: 'globex' },
          maxIterations: 1,
        });
        for (let i = 0; i < 2; i++) {
          const s = await openEvents(capped, run.id, { token: 'dev-token' });
          expect(s.status).toBe(200);
          open.push(s);
        }
        const third = await openEvents(capped, run.id, { token: 'dev-token' });
        expect(third.status).toBe(429);
        expect(third.json).toMatchObject({
          error: { code: 'too_many_requests', message: expect.stringContaining('You hold 2 open event streams') },
        });
        // Another person of the same tenant takes the tenant's last one, then the tenant is full for everyone in it.
        const ulla = await openEvents(capped, run.id, { token: 'user-token' });
        expect(ulla.status).toBe(200);
        open.push(ulla);
        const abe = await openEvents(capped, run.id, { token: 'auditor-token' });
        expect(abe.status).toBe(429);
        expect(abe.json).toMatchObject({
          error: { code: 'too_many_requests', message: expect.stringContaining("Your tenant's people hold 3") },
        });
        // Another tenant is not starved by acme's streams.
        const gil = await openEvents(capped, globex.workflowId, { token: 'globex-token' });
        expect(gil.status).toBe(200);
        open.push(gil);
        expect(capped.route.watcherCount()).toBe(4);
        // Closing one frees a place for its identity again.
        open.shift()!.close();
        await pollFor('a stream to leave', () => (capped.route.watcherCount() === 3 ? true : undefined));
        const again = await openEvents(capped, run.id, { token: 'dev-token' });
        expect(again.status).toBe(200);
        open.push(again);
        await run.handle.terminate('test done');
        await globex.terminate('test done').catch(() => undefined);
      } finally {
        for (const s of open) s.close();
        await capped.close();
      }
    });

    it('503 when the server holds as many streams as it allows', async () => {
      const small = await startEventsServer(h.agents, { maxWatchers: 1 });
      try {
        const run = await start('cap check', lookups(1), 0);
        const one = await openEvents(small, run.id, { token: 'dev-token' });
        expect(one.status).toBe(200);
        const two = await openEvents(small, run.id, { token: 'dev-token' });
        expect(two.status).toBe(503);
        expect(two.json).toMatchObject({ error: { code: 'unavailable' } });
        one.close();
        await pollFor('the first stream to leave', () => (small.route.watcherCount() === 0 ? true : undefined));
        const three = await openEvents(small, run.id, { token: 'dev-token' });
        expect(three.status).toBe(200);
        three.close();
        await run.handle.terminate('test done');
      } finally {
        await small.close();
      }
    });
  });
});
