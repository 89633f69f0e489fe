import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  AgentInput,
  MAX_OUTPUT_SCHEMA_CHARS,
  OutputSchema,
  outputSchemaOf,
  readStructuredAnswer,
  withoutFormats,
} from '../../src/domain';

const Weather = z.object({ city: z.string(), celsius: z.number(), sky: z.enum(['clear', 'cloudy']) }).strict();
const schema = outputSchemaOf(Weather);

describe('structured final answers', () => {
  it('sends a zod schema as JSON Schema and reads a value, JSON text, or JSON in a code fence', () => {
    expect(schema).toMatchObject({ type: 'object', required: ['city', 'celsius', 'sky'] });
    const value = { city: 'Paris', celsius: 21, sky: 'clear' };
    for (const given of [value, JSON.stringify(value), '```json\n' + JSON.stringify(value) + '\n```'])
      expect(readStructuredAnswer(schema, given)).toEqual({ ok: true, value, text: JSON.stringify(value) });
  });

  it('says what does not match, and what is not JSON, instead of throwing', () => {
    const wrong = readStructuredAnswer(schema, { city: 'Paris', celsius: 'warm', sky: 'clear' });
    expect(wrong).toMatchObject({ ok: false, problem: expect.stringContaining('celsius') });
    const prose = readStructuredAnswer(schema, 'It is 21 degrees in Paris.');
    expect(prose).toMatchObject({ ok: false, problem: expect.stringContaining('not JSON') });
  });

  it('reads format as an annotation (the pattern beside it is checked), and keeps a property named format', () => {
    const schema = {
      type: 'object',
      properties: { format: { type: 'string', format: 'email' }, id: { type: 'string', pattern: '^[a-z]+$' } },
    };
    expect(withoutFormats(schema)).toEqual({
      type: 'object',
      properties: { format: { type: 'string' }, id: { type: 'string', pattern: '^[a-z]+$' } },
    });
    expect(readStructuredAnswer(schema, { format: 'pdf', id: 'abc' }).ok).toBe(true);
    expect(readStructuredAnswer(schema, { format: 'pdf', id: 'ABC' }).ok).toBe(false);
  });

  it('bounds the problem it sends back, however many fields are wrong', () => {
    const wide = outputSchemaOf(
      z.object(Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`f${i}`, z.number()]))),
    );
    const read = readStructuredAnswer(wide, {});
    expect(read.ok).toBe(false);
    expect(!read.ok && read.problem.length).toBeLessThanOrEqual(2_001);
  });

  it('refuses at the start a schema too large to carry, or one it cannot check', () => {
    const huge = { type: 'object', description: 'x'.repeat(MAX_OUTPUT_SCHEMA_CHARS) };
    expect(OutputSchema.safeParse(huge).success).toBe(false);
    expect(
      OutputSchema.safeParse({ type: 'object', description: 'x'.repeat(MAX_OUTPUT_SCHEMA_CHARS - 100) }).success,
    ).toBe(true);
    expect(OutputSchema.safeParse({ type: 'no-such-type' }).success).toBe(false);
    expect(AgentInput.safeParse({ task: 't', outputSchema: { type: 'no-such-type' } }).success).toBe(false);
  });
});
