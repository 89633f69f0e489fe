import { describe, expect, it } from 'vitest';
import { AgentInput } from '../../src/domain';
import { MAX_TASK_BYTES, jsonBytes, utf8Bytes } from '../../src/domain/run/payload-size';

describe('utf8Bytes and jsonBytes', () => {
  it('count UTF-8 bytes as Temporal stores them', () => {
    for (const text of [
      '',
      'abc',
      'é',
      '€',
      '😀',
      'a😀é€',
      '\u0000',
      '\ud800',
      '\udc00x',
      '\u007f',
      '\u0080',
      'ascii then \u00ff',
    ]) {
      expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
    expect(jsonBytes({ a: 'é\n' })).toBe(Buffer.byteLength(JSON.stringify({ a: 'é\n' }), 'utf8'));
    expect(jsonBytes(undefined)).toBe(4);
  });
});

describe('AgentInput size limits', () => {
  const message = (field: string, value: string) => {
    const parsed = AgentInput.safeParse({ task: 't', [field]: value });
    return parsed.success ? undefined : parsed.error.message;
  };

  for (const field of ['task', 'systemPrompt']) {
    it(`accepts a ${field} of exactly ${MAX_TASK_BYTES} bytes and refuses one byte more, naming the limit`, () => {
      expect(message(field, 'x'.repeat(MAX_TASK_BYTES))).toBeUndefined();
      expect(message(field, 'x'.repeat(MAX_TASK_BYTES + 1))).toContain(`at most ${MAX_TASK_BYTES} bytes (UTF-8)`);
    });

    it(`counts the ${field} in UTF-8 bytes, not characters`, () => {
      expect(message(field, 'é'.repeat(MAX_TASK_BYTES / 2))).toBeUndefined();
      expect(message(field, `${'é'.repeat(MAX_TASK_BYTES / 2 - 1)}€`)).toContain('at most');
      expect(message(field, '😀'.repeat(MAX_TASK_BYTES / 4 + 1))).toContain('at most');
    });
  }
});
