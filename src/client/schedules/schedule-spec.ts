import { z } from 'zod';
import { utf8Bytes } from '../../domain/run/payload-size';
import { ModelProviderName } from '../../domain/model/model-wire';

/** A schedule's name: its URL segment and CLI argument; the Temporal Schedule id adds the tenant. */
export const ScheduleName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'a schedule name is 1–63 lowercase letters, digits, "-" or "_"');

/** The task a schedule gives each run: kept in the Schedule and in every run it starts, so kept small. */
export const MAX_SCHEDULE_INPUT_BYTES = 16 * 1024;
export const MAX_SCHEDULE_NOTE_CHARS = 500;

/** `30s`, `15m`, `1h`, `7d`: one whole number and one unit, nothing else. */
const DURATION = /^([1-9][0-9]{0,6})(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MAX_DURATION_MS = 366 * UNIT_MS.d;

/** Milliseconds of a `DURATION`, or undefined when the text is not one. */
export function durationMs(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

const duration = (what: string, minMs: number, why = '') =>
  z
    .string()
    .refine((text) => durationMs(text) !== undefined, `${what} is a whole number and a unit: 30s, 15m, 1h, 7d`)
    .refine(
      (text) => {
        const ms = durationMs(text);
        return ms === undefined || (ms >= minMs && ms <= MAX_DURATION_MS);
      },
      `${what} is between ${minMs % 60_000 === 0 ? `${minMs / 60_000}m` : `${minMs / 1000}s`} and 366d${why}`,
    );

/**
 * The shortest interval a schedule may have: each run costs 3 Temporal actions, so every 5s would
 * be about 52,000 billed actions a day; a minute is also cron's own resolution.
 */
export const MIN_SCHEDULE_INTERVAL_MS = 60_000;

/**
 * Five cron fields (minute hour day-of-month month day-of-week) or a Temporal alias such as
 * `@hourly`, in UTC. The characters are an allow-list; Temporal checks the rest and its refusal
 * comes back as a bad request.
 */
const Cron = z
  .string()
  .max(100)
  .regex(
    /^(@(yearly|annually|monthly|weekly|daily|hourly)|[0-9A-Za-z*/,?-]+( [0-9A-Za-z*/,?-]+){4})$/,
    'cron takes five fields (minute hour day-of-month month day-of-week, UTC) or @hourly, @daily…',
  );

/** What Temporal does when a run is due while the previous one still runs (its ScheduleOverlapPolicy). */
export const OVERLAP_POLICIES = [
  'skip',
  'buffer_one',
  'buffer_all',
  'cancel_other',
  'terminate_other',
  'allow_all',
] as const;
export const OverlapPolicy = z.enum(OVERLAP_POLICIES);
export type OverlapPolicy = z.infer<typeof OverlapPolicy>;

/** The model each run calls, when not the worker's default (`anthropic`'s). */
export const ScheduleModel = z.strictObject({ provider: ModelProviderName, model: z.string().min(1).max(200) });

/** A schedule as its creator writes it (CLI flags, `POST /v1/schedules`): exactly one of `cron` and `every`. */
export const ScheduleInit = z
  .strictObject({
    name: ScheduleName,
    /** A registered agent's name (as `run --agent`). */
    agent: z.string().min(1).max(200),
    /** The task each run is given. */
    input: z
      .string()
      .min(1)
      .refine((text) => utf8Bytes(text) <= MAX_SCHEDULE_INPUT_BYTES, {
        message: `input is at most ${MAX_SCHEDULE_INPUT_BYTES} bytes (UTF-8): it is kept in the schedule and in every run`,
      }),
    model: ScheduleModel.optional(),
    cron: Cron.optional(),
    every: duration('every', MIN_SCHEDULE_INTERVAL_MS, ': each run costs 3 Temporal actions').optional(),
    overlap: OverlapPolicy.default('skip'),
    /** How late a missed run may still start after the server was unavailable (Temporal's catchupWindow; at least 10s). */
    catchup: duration('catchup', 10_000).default('1m'),
    paused: z.boolean().default(false),
    note: z.string().max(MAX_SCHEDULE_NOTE_CHARS).optional(),
  })
  .refine((init) => (init.cron === undefined) !== (init.every === undefined), {
    message: 'give exactly one of cron and every',
    path: ['cron'],
  });
export type ScheduleInit = z.input<typeof ScheduleInit>;
export type ScheduleSettings = z.output<typeof ScheduleInit>;

/** A schedule as listed: what it runs, when, and its state. */
export const ScheduleRecord = z.object({
  name: z.string(),
  agent: z.string(),
  input: z.string(),
  model: ScheduleModel.optional(),
  cron: z.string().optional(),
  every: z.string().optional(),
  overlap: OverlapPolicy,
  catchup: z.string(),
  paused: z.boolean(),
  note: z.string().optional(),
  /** Who created it; its runs are theirs. */
  owner: z.string(),
  /** The next times it will start a run (ISO 8601), at most three; empty while paused. */
  nextRuns: z.array(z.string()),
  /** The latest runs it started, newest first, at most five. */
  recentRuns: z.array(z.object({ runId: z.string(), startedAt: z.string() })),
});
export type ScheduleRecord = z.infer<typeof ScheduleRecord>;
