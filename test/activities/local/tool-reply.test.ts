import { describe, expect, it } from 'vitest';
import { readToolReply } from '../../../src/activities/models/local/tool-reply';
import {
  THOUGHT_MAX_CHARS,
  toGrammarSchema,
  toolReplySchema,
} from '../../../src/activities/models/local/tool-reply-schema';

describe('readToolReply: what a model wrote under the tool grammar', () => {
  it('a call: the thought as text, then a tool_use with a fresh id', () => {
    const reply = readToolReply('{"thought": "I add them.", "tool": "add", "arguments": {"a": 2, "b": 3}}', false);
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.content).toEqual([
      { type: 'text', text: 'I add them.' },
      { type: 'tool_use', id: expect.stringMatching(/^call_local_\w{16}$/), name: 'add', input: { a: 2, b: 3 } },
    ]);
  });

  it('an answer: its text, end_turn', () => {
    expect(readToolReply('{"thought": "Known.", "answer": "5"}', false)).toEqual({
      content: [{ type: 'text', text: '5' }],
      stopReason: 'end_turn',
    });
  });

  it('JSON cut by max tokens: the raw text, max_tokens, never a parse crash or a call', () => {
    const cut = '{"thought": "I add them.", "tool": "add", "arguments": {"a": 2, "b"';
    expect(readToolReply(cut, true)).toEqual({ content: [{ type: 'text', text: cut }], stopReason: 'max_tokens' });
  });

  it('text that is not the shape: kept as text, end_turn', () => {
    expect(readToolReply('not json', false).content).toEqual([{ type: 'text', text: 'not json' }]);
    expect(readToolReply('[1, 2]', false).content).toEqual([{ type: 'text', text: '[1, 2]' }]);
  });
});

describe('toolReplySchema and toGrammarSchema', () => {
  it('one branch per tool, keyed by a const name, and an answer branch; the thought is bounded', () => {
    const schema = toolReplySchema([
      { name: 'add', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } },
    ]) as { oneOf: Array<{ properties: Record<string, unknown> }> };
    expect(schema.oneOf).toHaveLength(2);
    expect(schema.oneOf[0]?.properties['tool']).toEqual({ const: 'add' });
    expect(schema.oneOf[0]?.properties['thought']).toEqual({ type: 'string', maxLength: THOUGHT_MAX_CHARS });
    expect(Object.keys(schema.oneOf[1]?.properties ?? {})).toEqual(['thought', 'answer']);
  });

  it('keeps what the grammar takes, maps anyOf to oneOf, drops bounds it cannot express', () => {
    expect(
      toGrammarSchema({
        type: 'object',
        properties: {
          n: { type: 'integer', minimum: 1 },
          s: { type: 'string', pattern: '^a', maxLength: 5 },
          u: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          e: { enum: ['x', 'y'] },
        },
        required: ['n'],
        additionalProperties: false,
      }),
    ).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer' },
        s: { type: 'string', maxLength: 5 },
        u: { oneOf: [{ type: 'string' }, { type: 'null' }] },
        e: { enum: ['x', 'y'] },
      },
      required: ['n'],
      additionalProperties: false,
    });
  });

  it('a schema it cannot read becomes any JSON value', () => {
    expect(toGrammarSchema({ allOf: [] })).toHaveProperty('oneOf');
    expect(toGrammarSchema(undefined)).toHaveProperty('oneOf');
  });
});
