import { describe, expect, it } from 'vitest';
import type { ModelReply } from '../../src/shared';
import { decideNextStep } from '../../src/workflows/decide-next-step';

const reply = (content: ModelReply['content']): ModelReply => ({
  content,
  stopReason: 'end_turn',
  model: 'm',
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  costUsd: 0,
  durationMs: 1,
});
const use = (name: string, input: Record<string, unknown>, id = name) => ({ type: 'tool_use' as const, id, name, input });

describe('decideNextStep', () => {
  it('ends with the finish tool result', () => {
    const next = decideNextStep(reply([{ type: 'text', text: 'done' }, use('finish', { result: '42' })]), 'finish');
    expect(next).toMatchObject({ kind: 'final_answer', via: 'finish_tool', answer: '42', skipped: [] });
  });

  it('honours a renamed finish tool and ignores a tool merely called finish', () => {
    expect(decideNextStep(reply([use('complete', { result: 'x' })]), 'complete').kind).toBe('final_answer');
    expect(decideNextStep(reply([use('finish', { result: 'x' })]), 'complete').kind).toBe('run_tools');
  });

  it('treats a reply without tool calls as the answer', () => {
    const next = decideNextStep(reply([{ type: 'text', text: '  Paris is colder.  ' }]), 'finish');
    expect(next).toEqual({ kind: 'final_answer', answer: 'Paris is colder.', via: 'text_reply' });
  });

  it('runs requested tools in order', () => {
    const next = decideNextStep(reply([use('a', {}, '1'), use('b', {}, '2')]), 'finish');
    expect(next.kind === 'run_tools' && next.calls.map((c) => c.id)).toEqual(['1', '2']);
  });

  it('reports tools called beside finish as skipped', () => {
    const next = decideNextStep(reply([use('weather', {}), use('finish', { result: 'ok' })]), 'finish');
    expect(next.kind === 'final_answer' && next.via === 'finish_tool' && next.skipped.map((c) => c.name)).toEqual(['weather']);
  });

  it('rejects a finish call without a string result', () => {
    for (const input of [{}, { result: 3 }, { result: '  ' }]) {
      const next = decideNextStep(reply([use('finish', input)]), 'finish');
      expect(next.kind).toBe('invalid_finish');
    }
  });
});
