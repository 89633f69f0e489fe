import type { z } from 'zod';

/**
 * Reads a message payload (signal, update or query argument) against its schema without ever
 * throwing: undefined when it does not parse, and also when reading it throws (a getter or a
 * proxy that throws, a value too deep to walk). The result is zod's fresh copy, never the
 * caller's object. Deterministic.
 */
export function readMessage<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  try {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Marks text that a limit cut short, so the reader knows something is missing. */
export const CUT_MARKER = ' […cut]';

/** `text` if it has at most `max` characters, else its first characters and the marker, `max` in all. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, Math.max(0, max - CUT_MARKER.length)) + CUT_MARKER;
}
