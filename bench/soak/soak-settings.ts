/**
 * A soak's settings, from the environment `npm run soak` passes on. The full soak is an hour; CI
 * runs the smallest (SOAK_MINUTES=5) with the same checks and every fault.
 */
export interface SoakSettings {
  minutes: number;
  runsPerMinute: number;
  watchers: number;
  seed: number;
  /** Each model reply waits this long (the stand-in's latency). */
  modelDelayMs: number;
  /** Growth of a process's memory allowed after it settled, in per cent. */
  memoryBoundPct: number;
  settleMinutes: number;
  /** How long runs still open at the end of load may take to end. */
  drainMs: number;
  out: string;
  html?: string;
}

const number = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
};

export function soakSettings(): SoakSettings {
  const minutes = number('SOAK_MINUTES', 60);
  return {
    minutes,
    runsPerMinute: number('SOAK_RUNS_PER_MINUTE', 30),
    watchers: number('SOAK_WATCHERS', 50),
    seed: number('SOAK_SEED', 1),
    modelDelayMs: number('SOAK_MODEL_DELAY_MS', 150),
    memoryBoundPct: number('SOAK_MEMORY_BOUND_PCT', 25),
    // The first ten minutes of an hour; a sixth of a shorter soak, at least one minute.
    settleMinutes: Math.max(1, Math.min(10, Math.round(minutes / 6))),
    drainMs: number('SOAK_DRAIN_S', 300) * 1_000,
    out: process.env.SOAK_OUT ?? '.thoughtline/soak/latest.json',
    ...(process.env.SOAK_HTML ? { html: process.env.SOAK_HTML } : {}),
  };
}
