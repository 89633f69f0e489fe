import { z } from 'zod';

/** The largest output schema a run carries (as JSON text): it travels in the input of every continued run. */
export const MAX_OUTPUT_SCHEMA_CHARS = 16_384;

/**
 * A run's `outputSchema`: a JSON Schema object the final answer must match. Clients may pass a
 * zod schema; they send its JSON Schema (`outputSchemaOf`). Refused here, before the run starts,
 * when too large or not convertible, so a run never learns at its end that its schema is unreadable.
 */
export const OutputSchema = z
  .record(z.string(), z.unknown())
  .refine((schema) => jsonChars(schema) <= MAX_OUTPUT_SCHEMA_CHARS, {
    message: `outputSchema must be at most ${MAX_OUTPUT_SCHEMA_CHARS} characters of JSON`,
  })
  .refine(isConvertible, { message: 'outputSchema is not a JSON Schema this version can check (see docs/models.md)' });
export type OutputSchema = z.infer<typeof OutputSchema>;

function jsonChars(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? Infinity;
  } catch {
    return Infinity;
  }
}

function isConvertible(schema: Record<string, unknown>): boolean {
  try {
    z.fromJSONSchema(schema);
    return true;
  } catch {
    return false;
  }
}

/** The JSON Schema a client sends for a zod schema (or a JSON Schema, as it is). */
export function outputSchemaOf(schema: z.ZodType | Record<string, unknown>): OutputSchema {
  const json = schema instanceof z.ZodType ? z.toJSONSchema(schema, { io: 'output' }) : schema;
  return OutputSchema.parse(json);
}
