/**
 * What a soak (`npm run soak`) writes: the run's settings, one row a minute, the faults with the
 * time each took to heal, the zero checks and the memory verdicts. Plain JSON, read by
 * soak-report-html.ts and docs/benchmarks.md.
 */

/** How a run of the mix ended, as the soak's script expects it or as it happened. */
export type SoakEnding = 'finished' | 'cancelled' | 'failed' | 'timed_out' | 'other';

export interface Percentiles {
  p50: number;
  p99: number;
}

/** One process the soak watches, by role: `worker-a1`, `serve-2`, `temporal-frontend`, `postgres`, `redis`, `driver`. */
export interface ProcessMinute {
  /** Resident memory at the minute's end, in MB; undefined once the process is gone. */
  rssMb?: number;
  /** CPU over the minute, in per cent of one core. */
  cpuPct?: number;
}

export interface SoakMinute {
  /** 1 for the first minute of load. */
  minute: number;
  started: number;
  ended: Partial<Record<SoakEnding, number>>;
  /** From the start request to the run's first step, of runs whose first step came this minute (ms). */
  firstStepMs?: Percentiles;
  /** From the start request to the run's end, of runs that ended this minute (ms). */
  endToEndMs?: Percentiles;
  /** Runs open at the minute's end. */
  open: number;
  processes: Record<string, ProcessMinute>;
}

export interface SoakFault {
  /** Seconds from the start of load. */
  atS: number;
  kind: 'worker_kill' | 'serve_restart' | 'postgres_restart' | 'frontend_restart' | 'rolling_deploy';
  detail: string;
  /** The label of the probe: a one-step run asked for as the fault struck. */
  probe: string;
  /** From the fault to its probe having finished (ms): new work goes end to end again; undefined when it never did. */
  healedMs?: number;
}

export interface MemoryVerdict {
  process: string;
  /** RSS at the end of the settling period (the first 10 minutes, or a sixth of a short soak), MB. */
  settledMb: number;
  /** RSS at the process's last minute, MB. */
  lastMb: number;
  growthPct: number;
  withinBound: boolean;
}

export interface SoakReport {
  commit: string;
  startedAt: string;
  machine: string;
  settings: {
    minutes: number;
    /** Runs started a minute by the steady arrival process (schedules and triggers besides). */
    runsPerMinute: number;
    watchers: number;
    /** Growth allowed after settling, in per cent of the settled RSS. */
    memoryBoundPct: number;
    settleMinutes: number;
  };
  minutes: SoakMinute[];
  faults: SoakFault[];
  totals: {
    started: number;
    ended: Partial<Record<SoakEnding, number>>;
    /** Runs that never ended, or whose start was acknowledged and no run exists. */
    lost: number;
    /** Runs that ended another way than their script says. */
    unexpectedEndings: number;
    /** Side effects applied more than once for one run and step. */
    duplicateEffects: number;
    /** Runs that applied side effects though the soak never asked for them: a start made twice. */
    strangerRuns: number;
    /** Tool calls the chains record whose effect the service never applied. */
    missingEffects: number;
    watcherMissed: number;
    watcherRepeated: number;
    watchersFollowed: number;
  };
  /** Per ended run, averaged: what it leaves behind. */
  perRun: { storeRows: number; storeBytes: number; historyBytes: number; historyEvents: number };
  memory: MemoryVerdict[];
  /** Each check that failed, said plainly; empty when the soak passed. */
  problems: string[];
}
