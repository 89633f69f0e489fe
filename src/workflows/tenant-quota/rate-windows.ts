import { z } from 'zod';

/*
 * Sliding windows of the tenant quota that hold no run ids: calls and tokens per minute, spend per
 * hour. Amounts are counted in buckets stamped with the bucket's END, so an amount counts a little
 * longer than it would exactly (never shorter): the limit is never exceeded, and a window holds at
 * most window / bucket + 1 entries however busy the tenant is. Pure: `now` is passed in.
 */

/** Length of the per-minute windows (calls, tokens). */
export const MINUTE_WINDOW_MS = 60_000;
/** Width of a per-minute bucket: at most 61 entries per window. */
export const MINUTE_BUCKET_MS = 1_000;
/** Length of the spend window. */
export const SPEND_WINDOW_MS = 3_600_000;
/** Width of a spend bucket: at most 61 entries per window. */
export const SPEND_BUCKET_MS = 60_000;

export const WindowEntry = z.object({ at: z.number(), amount: z.number().nonnegative() });
export type WindowEntry = z.infer<typeof WindowEntry>;

/** A window: its length and bucket width. */
export interface WindowShape {
  windowMs: number;
  bucketMs: number;
}
export const MINUTE: WindowShape = { windowMs: MINUTE_WINDOW_MS, bucketMs: MINUTE_BUCKET_MS };
export const SPEND_HOUR: WindowShape = { windowMs: SPEND_WINDOW_MS, bucketMs: SPEND_BUCKET_MS };

/** Entries still counted at `now`. */
export function counted(entries: readonly WindowEntry[], shape: WindowShape, now: number): WindowEntry[] {
  return entries.filter((e) => e.at + shape.windowMs > now && e.amount > 0);
}

/** Amounts are whole calls and tokens, or USD kept to the micro-dollar (as the run's ledger keeps it). */
const exact = (n: number): number => Math.round(n * 1e6) / 1e6;

export function total(entries: readonly WindowEntry[]): number {
  return exact(entries.reduce((sum, e) => sum + e.amount, 0));
}

/** Counts `amount` at `now`, in the bucket `now` falls in (merged with that bucket's entry). */
export function count(entries: WindowEntry[], amount: number, shape: WindowShape, now: number): WindowEntry[] {
  if (amount <= 0) return entries;
  const at = Math.floor(now / shape.bucketMs) * shape.bucketMs + shape.bucketMs;
  const last = entries[entries.length - 1];
  if (last !== undefined && last.at === at)
    return [...entries.slice(0, -1), { at, amount: exact(last.amount + amount) }];
  return [...entries, { at, amount: exact(amount) }];
}

/** Takes back up to `amount`, newest entries first (a run giving back what it leased and did not use). */
export function giveBack(
  entries: readonly WindowEntry[],
  amount: number,
): { entries: WindowEntry[]; returned: number } {
  let left = amount;
  const kept = entries.reduceRight<WindowEntry[]>((acc, e) => {
    const back = Math.min(left, e.amount);
    left = exact(left - back);
    return e.amount > back ? [{ ...e, amount: exact(e.amount - back) }, ...acc] : acc;
  }, []);
  return { entries: kept, returned: exact(amount - left) };
}

/** ISO time the oldest counted entry leaves the window: the window has room again then. */
export function freesAt(entries: readonly WindowEntry[], shape: WindowShape): string | undefined {
  const first = entries[0];
  return first === undefined ? undefined : new Date(first.at + shape.windowMs).toISOString();
}
