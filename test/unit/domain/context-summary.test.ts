import { describe, expect, it } from 'vitest';
import { AgentInput, type ModelMessage } from '../../../src/domain';
import {
  boundedContextSummary,
  CONTEXT_SUMMARY_SOURCE_CHARS,
  contextSummaryBlock,
  contextSummaryLimit,
  contextSummaryPrompt,
  contextSummarySystem,
  DEFAULT_CONTEXT_SUMMARY_CHARS,
  MAX_CONTEXT_SUMMARY_CHARS,
  MIN_CONTEXT_SUMMARY_CHARS,
  previousContextSummary,
} from '../../../src/domain/model/context-summary';
import { offlineContextSummary } from '../../../src/offline/offline-context-summary';
import { offlineContent } from '../../../src/offline/offline-model';

const turn = (n: number, result: string): ModelMessage[] => [
  { role: 'assistant', content: [{ type: 'tool_use', id: `t${n}`, name: 'read_room', input: { n } }] },
  { role: 'user', content: [{ type: 'tool_result', toolUseId: `t${n}`, content: result, isError: n === 2 }] },
];

describe('contextSummary settings', () => {
  it('is off when absent, on with defaults when given, and bounded', () => {
    expect(AgentInput.parse({ task: 't' }).contextSummary).toBeUndefined();
    expect(AgentInput.parse({ task: 't', contextSummary: {} }).contextSummary).toEqual({
      maxChars: DEFAULT_CONTEXT_SUMMARY_CHARS,
    });
    const parse = (maxChars: number) => AgentInput.safeParse({ task: 't', contextSummary: { maxChars } }).success;
    expect(parse(MAX_CONTEXT_SUMMARY_CHARS)).toBe(true);
    expect(parse(MAX_CONTEXT_SUMMARY_CHARS + 1)).toBe(false);
    expect(parse(MIN_CONTEXT_SUMMARY_CHARS)).toBe(true);
    expect(parse(MIN_CONTEXT_SUMMARY_CHARS - 1)).toBe(false);
  });

  it('gives a summary at most a fifth of the context', () => {
    expect(contextSummaryLimit({ maxChars: 4_000 }, 150_000)).toBe(4_000);
    expect(contextSummaryLimit({ maxChars: 4_000 }, 4_000)).toBe(800);
  });
});

describe('the summary call and its reply', () => {
  it('renders the dropped turns with the earlier summary, cut at the source limit', () => {
    const prompt = contextSummaryPrompt(
      'Find codes',
      'Room 0 is 707.',
      [...turn(1, 'code 717'), ...turn(2, 'no room')],
      500,
    );
    expect(prompt).toContain('Task: Find codes');
    expect(prompt).toContain('Summary of the turns before these:\nRoom 0 is 707.');
    expect(prompt).toContain('Tool call read_room {"n":1}\nTool result: code 717');
    expect(prompt).toContain('Tool result (error): no room');
    expect(prompt.endsWith('Write the summary in under 500 characters.')).toBe(true);
    const long = contextSummaryPrompt('t', undefined, turn(1, 'x'.repeat(CONTEXT_SUMMARY_SOURCE_CHARS * 2)), 500);
    expect(long.length).toBeLessThan(CONTEXT_SUMMARY_SOURCE_CHARS + 500);
    expect(long).toContain(`[cut: ${CONTEXT_SUMMARY_SOURCE_CHARS} of`);
  });

  it('bounds the reply at the limit exactly, redacts secrets and refuses an empty one', () => {
    expect(boundedContextSummary('x'.repeat(300), 300)).toBe('x'.repeat(300));
    const cut = boundedContextSummary('x'.repeat(301), 300);
    expect(cut).toHaveLength(300);
    expect(cut?.endsWith('…')).toBe(true);
    const secret = 'sk-ant-api03-' + 'a'.repeat(40);
    expect(boundedContextSummary(`The key was ${secret}.`, 300)).not.toContain(secret);
    expect(boundedContextSummary('  \n ', 300)).toBeUndefined();
  });

  it('reads back the summary a block carries', () => {
    const task: ModelMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'The task' },
        { type: 'text', text: contextSummaryBlock('Room 1 is 717.\nRoom 2 is 727.', 2) },
      ],
    };
    expect(previousContextSummary(task)).toBe('Room 1 is 717.\nRoom 2 is 727.');
    expect(previousContextSummary({ role: 'user', content: [{ type: 'text', text: 'The task' }] })).toBeUndefined();
  });

  it('the offline model quotes the earlier summary and each turn briefly, within the limit asked for', () => {
    const prompt = contextSummaryPrompt('Find codes', 'Room 0 is 707.', turn(1, `code 717 ${'y'.repeat(400)}`), 300);
    const summary = offlineContextSummary(prompt);
    expect(summary.startsWith('[offline model]')).toBe(true);
    expect(summary).toContain('Room 0 is 707.');
    expect(summary).toContain('- Tool call read_room {"n":1}');
    expect(summary).toContain('- Tool result: code 717');
    expect(summary.length).toBeLessThanOrEqual(300);
    // The offline model answers a summary call with it (told apart by the system prompt).
    const reply = offlineContent({
      provider: 'offline',
      model: 'offline-model',
      system: contextSummarySystem(),
      messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
      tools: [],
      toolChoice: 'none',
      maxTokens: 256,
    });
    expect(reply).toEqual([{ type: 'text', text: summary }]);
  });
});
