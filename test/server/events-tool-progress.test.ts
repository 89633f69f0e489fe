import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import type { VisibilityLevel } from '../../src/domain';
import { printFollowed } from '../../src/cli/reading/watch-printer';
import { pushFollow } from '../../src/client/follow/push-follow';
import { scanningTool } from '../helpers/progress-tool';
import { createMemoryBus } from '../../src/events/memory-bus';
import { pollFor } from '../helpers/approval-helpers';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { HeldScripts, openEvents, startEventsServer, type EventsServer, type SseMessage } from './events-harness';

const SECRET = 'sk-live-tool-progress-0123456789';
const UPDATES = 5;
let opened!: () => void;
const streamsOpen = new Promise<void>((resolve) => (opened = resolve));

/** A tool that waits until the test's watchers are in, then reports UPDATES steps of progress (one naming a secret). */
const scanAt = (name: string, visibility: VisibilityLevel) =>
  scanningTool(name, visibility, { secret: SECRET, updates: UPDATES, gapMs: 260, ready: streamsOpen });

const env = useTestEnv();
const book = new HeldScripts();
let h: AgentHarness;
let running: Promise<void>;
let server: EventsServer;

beforeAll(async () => {
  const bus = createMemoryBus();
  h = await createHarness(env, {
    tools: [scanAt('scan', 'full'), scanAt('scan_summary', 'summary'), scanAt('scan_hidden', 'hidden')],
    models: { scripted: book.provider },
    secrets: [SECRET],
    events: bus,
  });
  running = h.worker.run();
  server = await startEventsServer(h.agents, {}, bus);
});

afterAll(async () => {
  await server?.close();
  h?.worker.shutdown();
  await running;
});

const progressOf = (messages: readonly SseMessage[], tool: string) =>
  messages.filter((m) => m.event === 'tool_progress' && m.data.toolName === tool).map((m) => m.data);

/** Where the result step of `tool`'s call is among the messages (the call's correlation id names it). */
function resultIndex(messages: readonly SseMessage[], tool: string): number {
  const call = messages.find((m) => m.event === 'step' && m.data.step.toolCall?.toolName === tool);
  const id = call?.data.step.toolCall.correlationId;
  return messages.findIndex((m) => m.event === 'step' && m.data.step.toolResult?.correlationId === id);
}

describe('tool progress on GET /v1/runs/:id/events', () => {
  it('reaches a watcher before the result step, redacted, as far as its view shows the call step; never stored', async () => {
    const run = await book.start(h.agents, 'scan the files', [
      { content: [useTool('scan', {})] },
      { content: [useTool('scan_summary', {})] },
      { content: [useTool('scan_hidden', {})] },
      { content: [say('Final answer: 1500 files.')] },
    ]);
    const [dev, user, auditor] = await Promise.all([
      openEvents(server, run.id, { token: 'dev-token' }),
      openEvents(server, run.id, { token: 'user-token' }),
      openEvents(server, run.id, { token: 'auditor-token' }),
    ]);
    const all = [dev, user, auditor];
    // `thoughtline watch` through serve: the same stream, printed as lines.
    const printed: string[] = [];
    const out = new Writable({ write: (chunk, _enc, done) => void (printed.push(String(chunk)), done()) });
    const follow = printFollowed(
      pushFollow(run.id, { server: { url: server.url, token: 'dev-token' }, result: () => run.handle.result() }),
      out,
    );
    await Promise.all(all.map((s) => s.waitFor('status', (m) => m.event === 'status')));
    await pollFor('the watchers to join', () => (server.route.watcherCount() === 4 ? true : undefined));
    opened();
    await follow;
    await Promise.all(all.map((s) => s.waitFor('end', (m) => m.event === 'end', 60_000)));

    // A full tool: every update, in order, before its result, with the secret redacted.
    const full = progressOf(dev.messages, 'scan');
    expect(full.map((p) => p.fraction)).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
    expect(full.map((p) => p.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(full[0]).toMatchObject({
      type: 'tool_progress',
      runId: run.id,
      message: expect.stringContaining('scanned 100 files'),
      data: { i: 1 },
    });
    const lastProgress = Math.max(
      ...dev.messages.map((m, at) => (m.event === 'tool_progress' && m.data.toolName === 'scan' ? at : -1)),
    );
    expect(lastProgress).toBeLessThan(resultIndex(dev.messages, 'scan'));
    // A summary-level tool: the end user's view shows its name and how far it is, nothing it said.
    expect(progressOf(user.messages, 'scan').map((p) => p.fraction)).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
    expect(progressOf(dev.messages, 'scan_summary')[0]).toMatchObject({ message: expect.any(String) });
    const summary = progressOf(user.messages, 'scan_summary');
    expect(summary.map((p) => p.fraction)).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
    for (const p of summary) expect(p.message === undefined && p.data === undefined).toBe(true);
    // A hidden tool's progress reaches no one below the auditor, whose view shows the call.
    expect(progressOf(dev.messages, 'scan_hidden')).toEqual([]);
    expect(progressOf(user.messages, 'scan_hidden')).toEqual([]);
    expect(progressOf(auditor.messages, 'scan_hidden')).toHaveLength(UPDATES);
    expect(JSON.stringify(all.map((s) => s.messages))).not.toContain(SECRET);
    // The CLI prints each update under the call, before the call's result line.
    const text = stripVTControlCharacters(printed.join(''));
    expect(text).toContain('⋯ scan 20% scan scanned 100 files with [REDACTED]');
    expect(text).toContain('⋯ scan_summary 100%');
    expect(text).not.toContain('scan_hidden 20%');
    expect(text.indexOf('⋯ scan 100%')).toBeLessThan(text.indexOf('scan_summary 20%'));
    expect(text).not.toContain(SECRET);
    // Never stored: the chain has the calls and results only.
    const chain = await h.agents.chain(run.id, 'auditor');
    expect(JSON.stringify(chain)).not.toContain('scanned 100 files');
    for (const s of all) s.close();
  }, 60_000);
});
