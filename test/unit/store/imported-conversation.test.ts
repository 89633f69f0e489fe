import { describe, expect, it } from 'vitest';
import { forkWorkflowId } from '../../../src/client/fork/fork-run';
import type { ReasoningStep } from '../../../src/domain';
import { HELD_TEXT } from '../../../src/domain/guardrails/guardrail';
import { rebuildImportedConversation } from '../../../src/domain/store/imported-conversation';

let n = 0;
const base = () => ({
  stepId: `s${++n}`,
  stepNumber: n,
  timestamp: '2026-01-01T00:00:00.000Z',
  iteration: 1,
  visibility: { level: 'full' as const },
});
const call = (toolType: 'llm' | 'external' | 'custom', toolName: string, id: string, args: Record<string, unknown>) =>
  ({
    ...base(),
    type: 'tool_call',
    toolCall: { toolType, toolName, correlationId: id, arguments: args },
  }) as ReasoningStep;
const result = (id: string, outcome: { result?: unknown; error?: string }, extra: Record<string, unknown> = {}) =>
  ({
    ...base(),
    ...extra,
    type: 'tool_result',
    toolResult: { correlationId: id, success: outcome.error === undefined, durationMs: 5, ...outcome },
  }) as ReasoningStep;
const turn = (id: string, args: Record<string, unknown> = {}) =>
  call('llm', 'm-1', id, {
    provider: 'scripted',
    messages: 1,
    tools: ['lookup', 'finish'],
    toolChoice: 'auto',
    ...args,
  });

/** Two turns, each with its calls; a judge's call between them; the last reply's text held for the guardrails. */
function steps(): ReasoningStep[] {
  n = 0;
  return [
    turn('c1'),
    result(
      'c1',
      {
        result: {
          stopReason: 'tool_use',
          text: 'Both keys.',
          toolCalls: [
            { id: 't1', name: 'lookup' },
            { id: 't2', name: 'lookup' },
          ],
        },
      },
      { model: 'm-1-dated', usage: { inputTokens: 10, outputTokens: 2 }, costUsd: 0.5 },
    ),
    call('external', 'lookup', 't1', { key: 'a' }),
    result('t1', { result: { value: 1 } }),
    call('external', 'lookup', 't2', { key: 'b' }),
    result('t2', { error: 'boom' }),
    call('llm', 'judge', 'c2', { messages: 1, tools: [], toolChoice: 'none', purpose: 'verdict' }),
    result('c2', { result: { stopReason: 'end_turn', text: 'fine', toolCalls: [] } }),
    turn('c3', { messages: 3 }),
    result('c3', { result: { stopReason: 'tool_use', text: HELD_TEXT, toolCalls: [{ id: 't3', name: 'finish' }] } }),
    call('custom', 'finish', 't3', { result: 'done' }),
  ];
}

describe("rebuildImportedConversation: an imported run's model calls from its steps alone", () => {
  it("rebuilds each turn's conversation and reply in the native protocol; side calls join none", () => {
    const { calls, textProtocol } = rebuildImportedConversation('the task', steps());
    expect(textProtocol).toBe(false);
    expect(calls.map((c) => [c.stepNumber, c.side, c.provider, c.model])).toEqual([
      [1, false, 'scripted', 'm-1'],
      [7, true, undefined, 'judge'],
      [9, false, 'scripted', 'm-1'],
    ]);
    const task = { role: 'user', content: [{ type: 'text', text: 'the task' }] };
    expect(calls[0]!.messages).toEqual([task]);
    const first = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Both keys.' },
        { type: 'tool_use', id: 't1', name: 'lookup', input: { key: 'a' } },
        { type: 'tool_use', id: 't2', name: 'lookup', input: { key: 'b' } },
      ],
    };
    expect(calls[0]!.reply).toEqual({
      content: first.content,
      stopReason: 'tool_use',
      model: 'm-1-dated',
      usage: { inputTokens: 10, outputTokens: 2 },
      costUsd: 0.5,
      durationMs: 5,
    });
    expect(calls[1]!.messages).toEqual([]);
    // A result as JSON, a failure by its error's text, in the order of the calls.
    expect(calls[2]!.messages).toEqual([
      task,
      first,
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 't1', content: '{"value":1}', isError: false },
          { type: 'tool_result', toolUseId: 't2', content: 'boom', isError: true },
        ],
      },
    ]);
    // The held text is not the reply's: it is said, not passed off as what the model wrote.
    expect(calls[2]!.textHeld).toBe(true);
    expect(calls[2]!.reply!.content).toEqual([
      { type: 'tool_use', id: 't3', name: 'finish', input: { result: 'done' } },
    ]);
  });

  it('a call with no result step is `Not run.`; a failed model call has no reply; no tools offered is the text protocol', () => {
    n = 0;
    const cut = [
      turn('c1'),
      result('c1', { result: { stopReason: 'tool_use', text: '', toolCalls: [{ id: 't1', name: 'lookup' }] } }),
      call('external', 'lookup', 't1', { key: 'a' }),
      turn('c2'),
      result('c2', { error: 'Model call failed: overloaded' }),
    ];
    const { calls } = rebuildImportedConversation('t', cut);
    expect(calls[1]!.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 't1', content: 'Not run.', isError: true }],
    });
    expect(calls[1]!.reply).toBeUndefined();
    expect(calls[1]!.error).toBe('Model call failed: overloaded');
    n = 0;
    expect(rebuildImportedConversation('t', [turn('c1', { tools: [] })]).textProtocol).toBe(true);
  });
});

describe('forkWorkflowId', () => {
  it("names the import it forks, outside the imports' reserved id space", () => {
    expect(forkWorkflowId('import:0123abcd')).toMatch(/^imported-0123abcd-fork-[0-9a-f]{8}$/);
    expect(forkWorkflowId('agent-1')).toMatch(/^agent-1-fork-[0-9a-f]{8}$/);
  });
});
