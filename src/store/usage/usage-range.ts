import { z } from 'zod';
import { MAX_USAGE_DAYS } from '../../domain/store';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Longest `since` or `until` text read; anything longer is refused before it is parsed. */
export const MAX_RANGE_TEXT = 64;
/** Without a `since`, the route reports the last 30 days, like `/v1/usage`. */
export const DEFAULT_USAGE_DAYS = 30;

/** A range the caller gave that cannot be read, or covers too much; `field` names which part. */
export class UsageRangeError extends Error {
  override readonly name = 'UsageRangeError';
  constructor(
    readonly field: 'since' | 'until',
    message: string,
  ) {
    super(message);
  }
}

const Instant = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

/** An ISO time (`2026-11-01T00:00:00Z`) or day (`2026-11-01`, midnight UTC), as UTC ISO; undefined when unreadable. */
function instant(text: string): number | undefined {
  if (!Instant.safeParse(text).success) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `7d` or `12h`: a whole number of days or hours before `until`; undefined when it is not that shape. */
function ago(text: string): number | undefined {
  const unit = text.slice(-1);
  const digits = text.slice(0, -1);
  if ((unit !== 'd' && unit !== 'h') || digits.length === 0 || digits.length > 6) return undefined;
  for (const ch of digits) if (ch < '0' || ch > '9') return undefined;
  return Number(digits) * (unit === 'd' ? DAY_MS : HOUR_MS);
}

/**
 * The [from, to) a usage report covers: `until` an ISO time or day (default now), `since` one too
 * or a span before `until` (`7d`, `12h`; default 30 days). Refuses with a UsageRangeError an
 * unreadable or over-long text, a `since` not before `until`, and a range over MAX_USAGE_DAYS.
 */
export function usageRange(
  given: { since?: string | undefined; until?: string | undefined },
  now: Date,
): { from: string; to: string } {
  const read = (field: 'since' | 'until', text: string, before: number): number => {
    if (text.length > MAX_RANGE_TEXT)
      throw new UsageRangeError(field, `"${field}" is at most ${MAX_RANGE_TEXT} characters.`);
    const at = instant(text);
    if (at !== undefined) return at;
    const span = field === 'since' ? ago(text) : undefined;
    if (span !== undefined) return before - span;
    throw new UsageRangeError(
      field,
      field === 'since'
        ? `"since" must be a span like 7d or 12h, or an ISO time or day (2026-11-01T00:00:00Z, 2026-11-01); got "${text}".`
        : `"until" must be an ISO time or day (2026-11-01T00:00:00Z, 2026-11-01); got "${text}".`,
    );
  };
  const to = given.until === undefined ? now.getTime() : read('until', given.until, 0);
  const from = given.since === undefined ? to - DEFAULT_USAGE_DAYS * DAY_MS : read('since', given.since, to);
  if (from >= to) throw new UsageRangeError('since', '"since" must be before "until".');
  if (to - from > MAX_USAGE_DAYS * DAY_MS)
    throw new UsageRangeError('since', `A usage report covers at most ${MAX_USAGE_DAYS} days; narrow since and until.`);
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}
