import { z } from 'zod';

/** The memo key a run's origin is kept under (set at start, never upserted: no action of its own). */
export const ORIGIN_MEMO_KEY = 'thoughtlineOrigin';

/**
 * What started a run when no person did directly: a Temporal Schedule of an agent, or a signed
 * webhook delivery. Kept in the run's memo, which Temporal stores with the start at no extra
 * action; a run without one was started by its caller. Scheduled runs also carry Temporal's own
 * `TemporalScheduledById` search attribute.
 */
export const RunOrigin = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('schedule'), schedule: z.string().min(1).max(200) }),
  z.object({
    kind: z.literal('trigger'),
    trigger: z.string().min(1).max(200),
    deliveryId: z.string().min(1).max(200),
  }),
]);
export type RunOrigin = z.infer<typeof RunOrigin>;

/** The origin a memo records, or undefined when it records none or one this version cannot read. */
export function originOfMemo(memo: Record<string, unknown> | undefined): RunOrigin | undefined {
  const parsed = RunOrigin.safeParse(memo?.[ORIGIN_MEMO_KEY]);
  return parsed.success ? parsed.data : undefined;
}

/** One line for people: "scheduled by nightly" or "triggered by webhook deploys, delivery d-1". */
export function originText(origin: RunOrigin): string {
  return origin.kind === 'schedule'
    ? `scheduled by ${origin.schedule}`
    : `triggered by webhook ${origin.trigger}, delivery ${origin.deliveryId}`;
}
