import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import { AgentClient } from '../../src/client/agent-client';
import { createMemoryBus } from '../../src/events/memory-bus';
import type { RunEvent } from '../../src/domain/run/run-event';
import {
  message,
  midStreamError,
  startFakeMessagesServer,
  text,
  textBlock,
  thinkingBlock,
  toolUse,
  type FakeMessagesServer,
} from '../../src/testing';
import { createAgentWorker } from '../../src/worker';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';

const env = useTestEnv();
let fake: FakeMessagesServer | undefined;
afterEach(async () => fake?.close());

type TextDelta = Extract<RunEvent, { type: 'text_delta' }>;

/** The deltas of each model call attempt and kind, in arrival order. */
function byReply(deltas: readonly TextDelta[]): Map<string, TextDelta[]> {
  const map = new Map<string, TextDelta[]>();
  for (const d of deltas) {
    const key = `${d.activityId}#${d.attempt}#${d.kind}`;
    map.set(key, [...(map.get(key) ?? []), d]);
  }
  return map;
}

describe('text deltas from a streaming provider', () => {
  it('each streamed piece is a text_delta with its offset; pieces add up to the reply; a retried call starts again at 0', async () => {
    const answer = 'Alpha is fifty: I looked it up with the lookup tool, and the tool said so plainly.';
    const thought = 'The user wants alpha; the lookup tool knows it, so the answer is whatever it says.';
    fake = await startFakeMessagesServer({
      script: [
        toolUse('lookup', { key: 'alpha' }, { text: 'Let me look up alpha first.' }),
        // The answer breaks after a few pieces; Temporal retries the call, which streams it whole.
        midStreamError('overloaded_error', { reply: text(answer), afterEvents: 6 }),
        message([thinkingBlock(thought, 'sig-1'), textBlock(answer)]),
      ],
    });
    const bus = createMemoryBus();
    const taskQueue = `test-${randomUUID()}`;
    const workflowId = `deltas-${randomUUID()}`;
    const deltas: TextDelta[] = [];
    const steps: number[] = [];
    bus.subscribe(workflowId, (e) =>
      e.type === 'text_delta' ? deltas.push(e) : e.type === 'step' && steps.push(e.stepNumber),
    );
    const worker = await createAgentWorker({
      connection: env.nativeConnection,
      namespace: inject('temporalNamespace'),
      taskQueue,
      tools: testTools().tools,
      models: { anthropic: createAnthropicProvider({ apiKey: 'sk-ant-test-0123456789', baseURL: fake.baseUrl }) },
      workflowBundle: { codePath: inject('workflowBundlePath') },
      events: bus,
    });
    const agents = new AgentClient({ client: env.client, taskQueue });
    const result = await worker.runUntil(async () =>
      (
        await agents.start(
          { task: 'What is alpha?', model: { provider: 'anthropic', model: 'claude-sonnet-4-6' } },
          { workflowId },
        )
      ).result(),
    );
    fake.verify();
    expect(result).toMatchObject({ success: true, finalAnswer: answer });

    const replies = byReply(deltas);
    for (const pieces of replies.values()) {
      // Offsets follow each other exactly: no gap, no repeat.
      let at = 0;
      for (const piece of pieces) {
        expect(piece.offset).toBe(at);
        at += piece.text.length;
      }
    }
    const whole = (suffix: string) =>
      [...replies.entries()]
        .filter(([k]) => k.endsWith(suffix))
        .map(([k, pieces]) => [k.split('#')[1], pieces.map((p) => p.text).join('')]);
    expect(whole('#text')).toEqual([
      ['1', 'Let me look up alpha first.'],
      ['1', expect.stringMatching(/^Alpha is/)],
      ['2', answer],
    ]);
    expect(whole('#thinking')).toEqual([['2', thought]]);
    const [broken] = [...replies.values()].filter(
      (pieces) => pieces[0]!.attempt === 1 && pieces[0]!.text.startsWith('Alpha'),
    );
    expect(answer.startsWith(broken!.map((p) => p.text).join(''))).toBe(true);
    expect([...replies.values()].every((pieces) => pieces.length > 1)).toBe(true);
    // Each delta names the last step its worker had published when it streamed.
    const first = [...replies.values()][0]!;
    const last = [...replies.values()].at(-1)!;
    expect(first[0]!.stepNumber).toBeLessThan(last[0]!.stepNumber);
    expect(steps).toContain(last[0]!.stepNumber);
  });
});
