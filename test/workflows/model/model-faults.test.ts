import { temporal } from '@temporalio/proto';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import type { AgentInputInit } from '../../../src/domain';
import {
  httpError,
  message,
  midStreamError,
  startFakeMessagesServer,
  text,
  textBlock,
  thinkingBlock,
  toolUseBlock,
  type FakeMessagesServer,
  type ScriptEntry,
} from '../../../src/testing';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';
import { testTools } from '../../helpers/test-tools';

const EventType = temporal.api.enums.v1.EventType;
const env = useTestEnv();
let fake: FakeMessagesServer;
afterEach(async () => fake?.close());

const input: AgentInputInit = { task: 'What is alpha?', model: { provider: 'anthropic', model: 'claude-sonnet-4-6' } };

async function run(script: ScriptEntry[], runInput: AgentInputInit = input) {
  fake = await startFakeMessagesServer({ script });
  const h = await createHarness(env, {
    tools: testTools().tools,
    models: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test-0123456789', baseURL: fake.baseUrl }) },
  });
  const handle = await h.agents.start(runInput);
  const result = await h.worker.runUntil(handle.result());
  fake.verify();
  const events = (await handle.fetchHistory()).events ?? [];
  return { result, events };
}

describe('model faults as Temporal outcomes (real SDK, real HTTP, real server)', () => {
  it('a 429 is retried after the delay its retry-after-ms asked for', async () => {
    const { result, events } = await run([httpError(429, { retryAfterMs: 1_500 }), text('alpha is 50')]);
    expect(result).toMatchObject({ success: true, finalAnswer: 'alpha is 50' });
    const scheduled = events.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel',
    )[0]!;
    const started = events.find(
      (e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === scheduled.eventId?.toString(),
    )!;
    expect(started.activityTaskStartedEventAttributes?.attempt).toBe(2);
    expect(started.activityTaskStartedEventAttributes?.lastFailure?.applicationFailureInfo?.type).toBe(
      'ModelRateLimited',
    );
    const waited =
      Number(started.eventTime!.seconds) * 1000 +
      started.eventTime!.nanos! / 1e6 -
      (Number(scheduled.eventTime!.seconds) * 1000 + scheduled.eventTime!.nanos! / 1e6);
    expect(waited).toBeGreaterThanOrEqual(1_400);
  });

  it('a mid-stream overloaded error is retried; a 401 is not, and the run says why', async () => {
    const retried = await run([midStreamError('overloaded_error'), text('fine now')]);
    expect(retried.result).toMatchObject({ success: true, finalAnswer: 'fine now' });
    await fake.close();
    const refused = await run([httpError(401, { message: 'invalid x-api-key' })]);
    expect(refused.result).toMatchObject({
      success: false,
      terminationReason: 'error',
      error: expect.stringContaining('invalid x-api-key'),
    });
    expect(refused.events.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED)).toHaveLength(1);
    expect(fake.requests).toHaveLength(1);
  });

  it('shows extended thinking as thinking steps and sends it back with its signature', async () => {
    const { result } = await run([
      message([
        thinkingBlock('Alpha is probably in the lookup table.', 'sig-123'),
        textBlock('Checking.'),
        toolUseBlock('lookup', { key: 'alpha' }),
      ]),
      text('alpha is 50'),
    ]);
    expect(
      result.chain.steps.filter((s) => s.type === 'thinking').map((s) => (s.type === 'thinking' ? s.thought : '')),
    ).toContain('Alpha is probably in the lookup table.');
    const second = fake.requests[1]!.body!;
    expect(JSON.stringify(second.messages)).toContain('"signature":"sig-123"');
  });
});
