import { describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '../../../src/domain';
import { elicitationQuestion, readElicitationAnswer } from '../../../src/workflows/tools/elicitation-answer';

const request = (properties: Record<string, unknown>, problem?: string): ElicitationRequest => ({
  key: 'k1',
  server: 'everything',
  tool: 'everything__startElicitation',
  message: 'Who are you?',
  requestedSchema: { type: 'object', properties },
  ...(problem ? { problem } : {}),
});

describe('readElicitationAnswer', () => {
  it('reads decline and cancel as those actions, whatever the case', () => {
    expect(readElicitationAnswer(request({ name: { type: 'string' } }), ' Decline ', 'ana')).toEqual({
      ok: true,
      answer: { key: 'k1', action: 'decline', by: 'ana' },
    });
    expect(readElicitationAnswer(request({}), 'CANCEL', 'ana')).toEqual({
      ok: true,
      answer: { key: 'k1', action: 'cancel', by: 'ana' },
    });
  });

  it('reads a JSON object as the fields', () => {
    const read = readElicitationAnswer(
      request({ name: { type: 'string' }, age: { type: 'integer' } }),
      '{"name":"Ana","age":41,"tags":["a"]}',
      'ana',
    );
    expect(read).toEqual({
      ok: true,
      answer: { key: 'k1', action: 'accept', content: { name: 'Ana', age: 41, tags: ['a'] }, by: 'ana' },
    });
  });

  it('refuses JSON that is broken or holds nested objects, saying why', () => {
    const schema = request({ name: { type: 'string' }, age: { type: 'integer' } });
    expect(readElicitationAnswer(schema, '{"name":', 'ana')).toEqual({
      ok: false,
      problem: expect.stringContaining('not valid JSON'),
    });
    expect(readElicitationAnswer(schema, '{"name":{"first":"A"}}', 'ana')).toEqual({
      ok: false,
      problem: expect.stringContaining('object of strings'),
    });
    expect(readElicitationAnswer(schema, '[1]', 'ana')).toEqual({
      ok: false,
      problem: expect.stringContaining('fields name, age'),
    });
  });

  it('reads plain text as the one field, by its type', () => {
    expect(readElicitationAnswer(request({ name: { type: 'string' } }), ' Ana ', 'ana')).toMatchObject({
      ok: true,
      answer: { content: { name: 'Ana' } },
    });
    expect(readElicitationAnswer(request({ n: { type: 'integer' } }), '42', 'ana')).toMatchObject({
      ok: true,
      answer: { content: { n: 42 } },
    });
    expect(readElicitationAnswer(request({ n: { type: 'integer' } }), '4.2', 'ana')).toEqual({
      ok: false,
      problem: '"n" must be a whole number.',
    });
    expect(readElicitationAnswer(request({ x: { type: 'number' } }), '4.2', 'ana')).toMatchObject({
      ok: true,
      answer: { content: { x: 4.2 } },
    });
    expect(readElicitationAnswer(request({ ok: { type: 'boolean' } }), 'yes', 'ana')).toMatchObject({
      ok: true,
      answer: { content: { ok: true } },
    });
    expect(readElicitationAnswer(request({ ok: { type: 'boolean' } }), 'maybe', 'ana')).toEqual({
      ok: false,
      problem: '"ok" must be yes or no.',
    });
  });

  it('asks for JSON when plain text cannot say which field it fills', () => {
    expect(readElicitationAnswer(request({ a: { type: 'string' }, b: { type: 'string' } }), 'x', 'ana')).toEqual({
      ok: false,
      problem: expect.stringContaining('fields a, b'),
    });
    expect(readElicitationAnswer({ ...request({}), requestedSchema: { properties: 'nonsense' } }, 'x', 'ana')).toEqual({
      ok: false,
      problem: expect.stringContaining('(none)'),
    });
  });
});

describe('elicitationQuestion', () => {
  it('names the server, the tool, the message, how to answer and why the last answer was refused', () => {
    const text = elicitationQuestion(
      request({ name: { type: 'string' }, age: { type: 'integer' } }, 'age must be positive'),
    );
    expect(text).toContain('"everything" asks, during everything__startElicitation: Who are you?');
    expect(text).toContain('Reply with JSON of name (string), age (integer), or "decline" or "cancel".');
    expect(text).toContain('Your last answer was not accepted: age must be positive');
  });
});
