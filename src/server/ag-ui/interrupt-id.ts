import { z } from 'zod';

/**
 * What an AG-UI interrupt id names, so the front end's next request (on any server, hours later)
 * says which run waits, for which call, and where its stream stopped: nothing is kept on the
 * server. The id is base64url JSON; the run is checked again (access, thread) when it is answered.
 */
export const InterruptRef = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('approval'),
    runId: z.string().min(1).max(1_000),
    callId: z.string().min(1).max(1_000),
    argumentsHash: z.string().min(1).max(200),
    /** The last step the stream had sent: the resumed stream goes on after it. */
    step: z.number().int().nonnegative(),
  }),
  z.object({
    kind: z.literal('question'),
    runId: z.string().min(1).max(1_000),
    callId: z.string().min(1).max(1_000),
    step: z.number().int().nonnegative(),
  }),
  /** A run paused at its budget (`onBudget: 'ask'`); `pausedAt` names the pause. */
  z.object({
    kind: z.literal('budget'),
    runId: z.string().min(1).max(1_000),
    pausedAt: z.string().min(1).max(40),
    step: z.number().int().nonnegative(),
  }),
]);
export type InterruptRef = z.infer<typeof InterruptRef>;

/** Longest interrupt id read (characters); a longer one is no id of ours. */
const MAX_INTERRUPT_ID_CHARS = 4_096;

export const encodeInterruptId = (ref: InterruptRef): string =>
  Buffer.from(JSON.stringify(ref), 'utf8').toString('base64url');

/** The interrupt an id names; undefined for anything this server did not write. */
export function decodeInterruptId(id: string): InterruptRef | undefined {
  if (id.length > MAX_INTERRUPT_ID_CHARS) return undefined;
  try {
    const parsed = InterruptRef.safeParse(JSON.parse(Buffer.from(id, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
