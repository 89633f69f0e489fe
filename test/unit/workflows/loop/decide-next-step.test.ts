import { describe, expect, it } from 'vitest';
import type { ModelReply } from '../../../../src/domain';
import { decideNextStep } from '../../../../src/workflows/loop/decide-next-step';

const reply = (content: ModelReply['content']): ModelReply => ({
  content,
  stopReason: 'end_turn',
  model: 'm',
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0,
  durationMs: 1,
});
const use = (name: string, input: Record<string, unknown>, id = name) => ({
  type: 'tool_use' as const,
  id,
  name,
  input,
});

describe('decideNextStep', () => {
  it('ends with the finish tool result', () => {
    const next = decideNextStep(
      reply([{ type: 'text', text: 'done' }, use('finish', { result: '42' })]),
      'finish',
      'give_up',
    );
    expect(next).toMatchObject({ kind: 'final_answer', via: 'finish_tool', answer: '42', skipped: [] });
  });

  it('honours a renamed finish tool and ignores a tool merely called finish', () => {
    expect(decideNextStep(reply([use('complete', { result: 'x' })]), 'complete', 'give_up').kind).toBe('final_answer');
    expect(decideNextStep(reply([use('finish', { result: 'x' })]), 'complete', 'give_up').kind).toBe('run_tools');
  });

  it('treats a reply without tool calls as the answer', () => {
    const next = decideNextStep(reply([{ type: 'text', text: '  Paris is colder.  ' }]), 'finish', 'give_up');
    expect(next).toEqual({ kind: 'final_answer', answer: 'Paris is colder.', via: 'text_reply' });
  });

  it('runs requested tools in order', () => {
    const next = decideNextStep(reply([use('a', {}, '1'), use('b', {}, '2')]), 'finish', 'give_up');
    expect(next.kind === 'run_tools' && next.calls.map((c) => c.id)).toEqual(['1', '2']);
  });

  it('reports tools called beside finish as skipped', () => {
    const next = decideNextStep(reply([use('weather', {}), use('finish', { result: 'ok' })]), 'finish', 'give_up');
    expect(next.kind === 'final_answer' && next.via === 'finish_tool' && next.skipped.map((c) => c.name)).toEqual([
      'weather',
    ]);
  });

  it('rejects a finish call without a string result', () => {
    for (const input of [{}, { result: 3 }, { result: '  ' }]) {
      const next = decideNextStep(reply([use('finish', input)]), 'finish', 'give_up');
      expect(next.kind).toBe('invalid_finish');
    }
  });
  it('treats the give-up tool as a declared failure and skips the other calls of the turn', () => {
    const next = decideNextStep(
      reply([use('lookup', {}, '1'), use('give_up', { reason: ' No access. ' }, '2')]),
      'finish',
      'give_up',
    );
    expect(next).toMatchObject({ kind: 'give_up', reason: 'No access.', skipped: [{ id: '1' }] });
    expect(decideNextStep(reply([use('give_up', {}, '3')]), 'finish', 'give_up')).toMatchObject({
      kind: 'give_up',
      reason: 'The model gave up without a reason.',
    });
  });

  it('lets a valid finish win over a give-up in the same turn', () => {
    expect(
      decideNextStep(
        reply([use('give_up', { reason: 'x' }, '1'), use('finish', { result: 'done' }, '2')]),
        'finish',
        'give_up',
      ).kind,
    ).toBe('final_answer');
  });
});
