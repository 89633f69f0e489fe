import { z } from 'zod';

/** Characters of one progress message; a longer one is cut and ends with `…`. */
export const MAX_PROGRESS_MESSAGE_CHARS = 500;
/** Bytes of one update's `data` as JSON; larger data is left out (the message and fraction stay). */
export const MAX_PROGRESS_DATA_BYTES = 2_048;
/** Updates published per second of one call; between them the latest waits and wins. */
export const MAX_PROGRESS_PER_SECOND = 4;
/** Updates published by one attempt of a call; later ones are dropped and counted. */
export const MAX_PROGRESS_PER_ATTEMPT = 500;

/** What a tool hands `ctx.progress(...)`: a line, or a line, a fraction done (0–1) and a little JSON. */
export type ToolProgressUpdate = string | { message?: string; fraction?: number; data?: unknown };

/** One progress update as it may leave the worker: bounded, never stored in the chain. */
export const ToolProgress = z.object({
  message: z
    .string()
    .max(MAX_PROGRESS_MESSAGE_CHARS + 1)
    .optional(),
  fraction: z.number().min(0).max(1).optional(),
  data: z.unknown().optional(),
});
export type ToolProgress = z.infer<typeof ToolProgress>;

/**
 * What a running tool call's keep-alive heartbeat carries once it reported progress: the latest
 * update (numbered), the call step and the tool, so a follower reading the run's pending
 * activities (`AgentClient.follow` without a server) can place it.
 */
export const ToolHeartbeat = z.object({
  progress: ToolProgress.extend({ seq: z.number().int().nonnegative() }),
  stepId: z.string().min(1).max(200),
  toolName: z.string().min(1).max(200),
});
export type ToolHeartbeat = z.infer<typeof ToolHeartbeat>;

/**
 * A tool's update within the bounds, or undefined when nothing in it can be read (then it is
 * dropped, never thrown at the tool). A fraction outside 0–1 is clamped; one that is not a
 * finite number is left out, as is data that is not JSON or is over MAX_PROGRESS_DATA_BYTES.
 */
export function boundedProgress(update: unknown): ToolProgress | undefined {
  const given = typeof update === 'string' ? { message: update } : update;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) return undefined;
  const { message, fraction, data } = given as { message?: unknown; fraction?: unknown; data?: unknown };
  const out: ToolProgress = {};
  if (typeof message === 'string' && message.length > 0)
    out.message =
      message.length > MAX_PROGRESS_MESSAGE_CHARS ? `${message.slice(0, MAX_PROGRESS_MESSAGE_CHARS)}…` : message;
  if (typeof fraction === 'number' && Number.isFinite(fraction)) out.fraction = Math.min(1, Math.max(0, fraction));
  const json = data === undefined ? undefined : jsonOf(data);
  if (json !== undefined && new TextEncoder().encode(json).length <= MAX_PROGRESS_DATA_BYTES)
    out.data = JSON.parse(json) as unknown;
  return Object.keys(out).length > 0 ? out : undefined;
}

function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
