import { afterEach, describe, expect, it } from 'vitest';
import type { ModelDelta } from '../../../src/activities/model-activities';
import { createAnthropicProvider } from '../../../src/activities/models/anthropic/anthropic-provider';
import { defineGuardrail } from '../../../src/guardrails/define-guardrail';
import { startFakeMessagesServer, text, type FakeMessagesServer } from '../../../src/testing';
import { followElsewhere } from '../../helpers/follow-elsewhere';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
let fake: FakeMessagesServer;
afterEach(async () => fake?.close());

const claude = { provider: 'anthropic' as const, model: 'claude-sonnet-4-6' };
/** Only the answer the guardrail blocks holds this word. */
const BLOCKED = 'WALRUSVAULT';
const ANSWER = `The vault code, streamed slowly so that a watcher would see it grow, is ${BLOCKED}.`;
const noCodes = defineGuardrail({
  name: 'no-codes',
  stage: 'output',
  check: (t) => (t.includes(BLOCKED) ? { verdict: 'block', reason: 'an internal code' } : { verdict: 'pass' }),
});

/** A streamed run of one slow text reply; what the worker's listener and a remote (heartbeat) watcher saw of it. */
async function streamedRun(guardrails: string[] | undefined) {
  fake = await startFakeMessagesServer({ script: [text(ANSWER, { eventGapMs: 300 })] });
  const deltas: ModelDelta[] = [];
  const h = await createHarness(env, {
    tools: [],
    models: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test-0123456789', baseURL: fake.baseUrl }) },
    onModelDelta: (d) => deltas.push(d),
    guardrails: [noCodes],
  });
  const { events, result } = await h.worker.runUntil(async () => {
    const handle = await h.agents.start({
      task: 'The vault code?',
      model: claude,
      ...(guardrails ? { guardrails } : {}),
    });
    return followElsewhere(env, h.taskQueue, handle.workflowId);
  });
  fake.verify();
  const live = events.flatMap((e) => (e.type === 'live' ? [e.text] : [])).join('');
  return { result, deltas: deltas.map((d) => d.text).join(''), live, events: JSON.stringify(events) };
}

describe('live model text in a run whose answer an output guardrail checks', () => {
  it('negative control: without the guardrail the text streams to listeners and watchers', async () => {
    const run = await streamedRun(undefined);
    expect(run.result.success).toBe(true);
    expect(run.deltas).toBe(ANSWER);
    expect(run.live.length).toBeGreaterThan(0);
  }, 120_000);

  it('is held back: no delta, no heartbeat text, no step shows the blocked answer', async () => {
    const run = await streamedRun(['no-codes']);
    expect(run.result).toMatchObject({ success: false, terminationReason: 'custom' });
    expect(run.deltas).toBe('');
    expect(run.live).toBe('');
    expect(run.events).not.toContain(BLOCKED);
    expect(JSON.stringify(run.result)).not.toContain(BLOCKED);
  }, 120_000);
});
