import { temporal } from '@temporalio/proto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelDelta } from '../../../src/activities/model-activities';
import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import { hang, startFakeMessagesServer, text, toolUse, type FakeMessagesServer } from '../../../src/testing';
import { followElsewhere } from '../../helpers/follow-elsewhere';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const EventType = temporal.api.enums.v1.EventType;
const env = useTestEnv();
let fake: FakeMessagesServer;
afterEach(async () => fake?.close());

const claude = { provider: 'anthropic' as const, model: 'claude-sonnet-4-6' };

describe('a streamed run on the dev server', () => {
  it('shows token deltas to watchers while history keeps only whole replies', async () => {
    const answer = 'Alpha is fifty, which I looked up with the lookup tool just now.';
    fake = await startFakeMessagesServer({
      script: [toolUse('lookup', { key: 'alpha' }, { text: 'Let me look up alpha.' }), text(answer)],
    });
    const deltas: ModelDelta[] = [];
    const h = await createHarness(env, {
      tools: testTools().tools,
      models: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test-0123456789', baseURL: fake.baseUrl }) },
      onModelDelta: (d) => deltas.push(d),
    });
    const handle = await h.agents.start({ task: 'What is alpha?', model: claude });
    const result = await h.worker.runUntil(handle.result());
    fake.verify();
    expect(result).toMatchObject({ success: true, finalAnswer: answer });
    expect(fake.requests.every((r) => r.stream)).toBe(true);

    // Watchers saw the text arrive in pieces, per model call, and the pieces add up to the replies.
    const byCall = new Map<string, string[]>();
    for (const d of deltas.filter((x) => x.workflowId === handle.workflowId && x.kind === 'text')) {
      byCall.set(d.activityId, [...(byCall.get(d.activityId) ?? []), d.text]);
    }
    expect([...byCall.values()].map((pieces) => pieces.join(''))).toEqual(['Let me look up alpha.', answer]);
    expect([...byCall.values()].every((pieces) => pieces.length > 1)).toBe(true);

    // History holds the two whole replies and no trace of the pieces.
    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    expect(events.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)).toHaveLength(3); // 2 model calls (the first describes the tools), 1 tool
    // No signal and no marker carries a piece.
    const carriers = events.filter(
      (e) =>
        e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED ||
        e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED,
    );
    expect(carriers).toEqual([]);
  });

  it('streams model text to a remote watcher through heartbeats, before the step lands', async () => {
    const answer = 'The answer, streamed slowly in four pieces so that a watcher polling Temporal sees it grow.';
    // 10 SSE events, 400 ms apart: the call streams for about 3.6 s and heartbeats each second.
    fake = await startFakeMessagesServer({ script: [text(answer, { eventGapMs: 400 })] });
    const h = await createHarness(env, {
      tools: [],
      models: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test-0123456789', baseURL: fake.baseUrl }) },
    });
    const { events, result } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task: 'Say it slowly', model: claude });
      return followElsewhere(env, h.taskQueue, handle.workflowId);
    });
    expect(result).toMatchObject({ success: true, finalAnswer: answer });
    const live = events.flatMap((e) => (e.type === 'live' ? [e] : []));
    expect(live.length).toBeGreaterThanOrEqual(2);
    expect(new Set(live.map((d) => `${d.activityId}#${d.attempt}#${d.kind}`))).toEqual(
      new Set([`${live[0]!.activityId}#1#text`]),
    );
    const streamed = live.map((d) => d.text).join('');
    expect(streamed.length).toBeGreaterThan(0);
    expect(answer.startsWith(streamed)).toBe(true);
    // Live text came first; the whole reply arrived later as the final answer step.
    const firstLive = events.findIndex((e) => e.type === 'live');
    const answerStep = events.findIndex((e) => e.type === 'step' && e.step.type === 'synthesis');
    expect(firstLive).toBeGreaterThanOrEqual(0);
    expect(answerStep).toBeGreaterThan(firstLive);
  });

  it('stops a model call within 2 seconds when the run is cancelled mid-stream', async () => {
    fake = await startFakeMessagesServer({ script: [hang({ afterEvents: 3 })] });
    const h = await createHarness(env, {
      tools: [],
      models: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test-0123456789', baseURL: fake.baseUrl }) },
    });
    await h.worker.runUntil(async () => {
      const handle = await h.agents.start({ task: 'Never mind', model: claude });
      while (!fake.requests[0]) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300)); // well into the stream
      const cancelledAt = Date.now();
      await handle.cancel();
      while (!fake.requests[0]!.clientAborted && Date.now() - cancelledAt < 5_000)
        await new Promise((r) => setTimeout(r, 20));
      expect(fake.requests[0]!.clientAborted).toBe(true);
      expect(Date.now() - cancelledAt).toBeLessThan(2_000);
      // The run returns rather than fails: reason `cancelled`, the model call marked cancelled.
      const result = await handle.result();
      expect(result.terminationReason).toBe('cancelled');
      const llmResult = result.chain.steps.find((s) => s.type === 'tool_result' && s.model !== undefined);
      expect(llmResult).toMatchObject({ toolResult: { success: false, outcome: 'cancelled' } });
    });
  });
});
