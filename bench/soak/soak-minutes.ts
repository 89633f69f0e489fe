import type { MemoryVerdict, Percentiles, ProcessMinute, SoakMinute } from './soak-report-types';
import type { SoakRun } from './soak-runs';

/** The soak's record by minute of load (minute 1 is the first), from the runs and the process readings. Pure. */

function percentiles(values: number[]): Percentiles | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: Math.round(at(0.5)), p99: Math.round(at(0.99)) };
}

export function soakMinutes(
  runs: readonly SoakRun[],
  loadStart: number,
  readings: ReadonlyArray<Record<string, ProcessMinute>>,
): SoakMinute[] {
  const minuteOf = (t: number) => Math.floor((t - loadStart) / 60_000) + 1;
  const count = Math.max(readings.length, ...runs.map((r) => minuteOf(r.endedAt ?? r.requestedAt)));
  return Array.from({ length: count }, (_, i) => {
    const minute = i + 1;
    const started = runs.filter((r) => r.runId && minuteOf(r.requestedAt) === minute);
    const ended = runs.filter((r) => r.endedAt !== undefined && minuteOf(r.endedAt) === minute);
    const firstSteps = runs.filter((r) => r.firstStepAt !== undefined && minuteOf(r.firstStepAt) === minute);
    const endings: SoakMinute['ended'] = {};
    for (const r of ended) endings[r.ending!] = (endings[r.ending!] ?? 0) + 1;
    const end = loadStart + minute * 60_000;
    const firstStepMs = percentiles(firstSteps.map((r) => r.firstStepAt! - r.requestedAt));
    const endToEndMs = percentiles(ended.map((r) => r.endedAt! - r.requestedAt));
    return {
      minute,
      started: started.length,
      ended: endings,
      ...(firstStepMs ? { firstStepMs } : {}),
      ...(endToEndMs ? { endToEndMs } : {}),
      open: runs.filter((r) => r.runId && r.requestedAt < end && (r.endedAt === undefined || r.endedAt >= end)).length,
      processes: readings[i] ?? {},
    };
  });
}

/**
 * Each process that lived past its settling period and at least two minutes more: its memory at
 * the end of settling against its last reading. Settling counts from the process's first full
 * minute (its first reading may come seconds after it started): its own first minutes (a worker's
 * caches filling, a JIT warming) are not growth. The soak's own driver keeps a record of every run
 * by design, so it is judged by no bound.
 */
export function memoryVerdicts(
  minutes: readonly SoakMinute[],
  settleMinutes: number,
  boundPct: number,
): MemoryVerdict[] {
  const names = [...new Set(minutes.flatMap((m) => Object.keys(m.processes)))];
  return names.flatMap((name) => {
    const seen = minutes.filter((m) => m.processes[name]?.rssMb !== undefined).map((m) => m.processes[name]!.rssMb!);
    if (seen.length < settleMinutes + 3) return [];
    const settledMb = seen[settleMinutes]!;
    const lastMb = seen.at(-1)!;
    const growthPct = Math.round(((lastMb - settledMb) / settledMb) * 1_000) / 10;
    return [{ process: name, settledMb, lastMb, growthPct, withinBound: name === 'driver' || growthPct <= boundPct }];
  });
}
