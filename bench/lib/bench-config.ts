import path from 'node:path';
import { z } from 'zod';

export const FIGURE_IDS = [
  'overhead',
  'actions',
  'seeing',
  'push',
  'history',
  'longrun',
  'idle',
  'redaction',
  'scale',
  'workers',
  'cache',
  'evaluation',
  'seed003',
  'store',
  'cancel',
  'tenant',
  'mcptask',
  'runpage',
  'runlist',
] as const;
export type FigureId = (typeof FIGURE_IDS)[number];
export const PEER_NAMES = ['plain-node', 'temporal-ai-sdk', 'langgraph-sqlite'] as const;

const count = z.coerce.number().int().positive();
const counts = z.string().transform((s, ctx) => {
  const values = s.split(',').map((v) => Number(v.trim()));
  if (values.some((v) => !Number.isInteger(v) || v <= 0))
    ctx.addIssue({ code: 'custom', message: `expected positive integers separated by commas, got "${s}"` });
  return values;
});
const names = <T extends string>(allowed: readonly [T, ...T[]]) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(allowed)));

/** Every knob, read from the environment once. Unset knobs take the full-size or the quick default. */
const BenchEnv = z.object({
  BENCH_QUICK: z.enum(['0', '1']).default('0'),
  /** Every figure at its smallest size, to show in CI that each still runs (its numbers mean little). */
  BENCH_SMOKE: z.enum(['0', '1']).default('0'),
  BENCH_ONLY: names(FIGURE_IDS).optional(),
  BENCH_OUT: z.string().optional(),
  BENCH_OVERHEAD_ITERATIONS: count.optional(),
  BENCH_OVERHEAD_RUNS: count.optional(),
  BENCH_OVERHEAD_WARMUP: z.coerce.number().int().nonnegative().optional(),
  BENCH_PEERS: names(PEER_NAMES).optional(),
  BENCH_PEERS_DIR: z.string().optional(),
  BENCH_PEER_TIMEOUT_MS: count.optional(),
  BENCH_SCALE_RUNS: counts.optional(),
  BENCH_SCALE_ITERATIONS: count.optional(),
  BENCH_SCALE_MODEL_MS: count.optional(),
  BENCH_SCALE_TIMEOUT_MS: count.optional(),
  /** Pairs of sides per load, interleaved (Thoughtline, bare, Thoughtline, …); the figures are their medians. */
  BENCH_SCALE_REPEATS: count.optional(),
  /** JSON merged over the scale worker's options, e.g. '{"maxConcurrentWorkflowTaskExecutions":40}'. */
  BENCH_SCALE_WORKER_OPTIONS: z
    .string()
    .transform((s) => z.record(z.string(), z.unknown()).parse(JSON.parse(s)))
    .optional(),
  /** Node flags for the scale worker process, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'. */
  BENCH_SCALE_NODE_ARGS: z.string().optional(),
  BENCH_WORKERS_RUNS: count.optional(),
  /** How many worker processes, one load after another, e.g. '1,2'. */
  BENCH_WORKERS_PROCESSES: counts.optional(),
  /** An existing server to measure instead of a fresh dev server (npm run bench:cluster sets it). */
  BENCH_TEMPORAL_ADDRESS: z.string().optional(),
  BENCH_TEMPORAL_NAMESPACE: z.string().optional(),
  BENCH_CHAIN_ITERATIONS: count.optional(),
  BENCH_CHAIN_QUERIES: count.optional(),
  BENCH_WATCH_ITERATIONS: count.optional(),
  BENCH_WATCH_POLL_MS: counts.optional(),
  BENCH_WATCH_MODEL_MS: count.optional(),
  BENCH_PUSH_ITERATIONS: count.optional(),
  BENCH_PUSH_WATCHERS: counts.optional(),
  BENCH_PUSH_GAP_MS: count.optional(),
  BENCH_PUSH_IDLE_STREAMS: count.optional(),
  BENCH_PUSH_IDLE_RUNS: count.optional(),
  BENCH_HISTORY_ITERATIONS: counts.optional(),
  BENCH_HISTORY_OBSERVATION_BYTES: counts.optional(),
  BENCH_LONG_RUN_ITERATIONS: count.optional(),
  /** Figure 16: iterations of the run whose page is opened, and how many times it is opened. */
  BENCH_PAGE_ITERATIONS: count.optional(),
  BENCH_PAGE_LOADS: count.optional(),
  /** Figure 17: runs in the store, and reads of each sort. */
  BENCH_LIST_RUNS: count.optional(),
  BENCH_LIST_READS: count.optional(),
  BENCH_LONG_RUN_OBSERVATION_BYTES: count.optional(),
  BENCH_IDLE_CACHED_RUNS: count.optional(),
  BENCH_IDLE_EVICTED_RUNS: count.optional(),
  BENCH_EVAL_UNITS: count.optional(),
  BENCH_EVAL_CONCURRENCY: count.optional(),
  BENCH_STORE_STEPS: count.optional(),
  BENCH_STORE_READS: count.optional(),
  /** Figure 13: runs cancelled per way of cancelling. */
  BENCH_CANCEL_RUNS: count.optional(),
  BENCH_STORE_SEARCH_RUNS: count.optional(),
});

export interface BenchConfig {
  /** Quick or smoke sizes: not the official figures. */
  quick: boolean;
  smoke: boolean;
  figures: readonly FigureId[];
  out: string;
  overhead: { iterations: number; runs: number; warmup: number };
  peers: { names: readonly string[]; dir: string; timeoutMs: number };
  scale: {
    runs: readonly number[];
    repeats: number;
    iterations: number;
    modelMs: number;
    timeoutMs: number;
    workerOptions: Record<string, unknown>;
    nodeArgs: readonly string[];
  };
  workers: { runs: number; processes: readonly number[] };
  /** Where the figures run: undefined is a fresh dev server. */
  server: { address: string; namespace: string } | undefined;
  seeing: {
    chainIterations: number;
    queries: number;
    watchIterations: number;
    pollMs: readonly number[];
    watchModelMs: number;
  };
  push: { iterations: number; watchers: readonly number[]; gapMs: number; idleStreams: number; idleRuns: number };
  history: { iterations: readonly number[]; observationBytes: readonly number[] };
  longRun: { iterations: number; observationBytes: number };
  idle: { cachedRuns: number; evictedRuns: number };
  /** Figure 10: cases of one evaluation, and how many run at once. */
  evaluation: { units: number; concurrency: number };
  /** Figure 12: the chain's least steps, page reads per source, runs searched. */
  store: { steps: number; reads: number; searchRuns: number };
  /** Figure 13: runs cancelled per way of cancelling. */
  cancel: { runs: number };
  /** Figure 16: a long run's page in Chromium. */
  runPage: { iterations: number; loads: number };
  /** Figure 17: a run list from the chain store. */
  runList: { runs: number; reads: number };
}

/** Parses the environment into a frozen config; throws with every bad knob named. */
export function loadBenchConfig(env: NodeJS.ProcessEnv, projectRoot: string): Readonly<BenchConfig> {
  const e = BenchEnv.parse(env);
  const smoke = e.BENCH_SMOKE === '1';
  const quick = smoke || e.BENCH_QUICK === '1';
  /** The knob's value if set, else the size's default (smoke falls back to quick where none is given). */
  const pick = <T>(value: T | undefined, full: T, small: T, smallest: T = small): T =>
    value ?? (smoke ? smallest : quick ? small : full);
  return Object.freeze({
    quick,
    smoke,
    figures: e.BENCH_ONLY ?? FIGURE_IDS,
    out: path.resolve(projectRoot, e.BENCH_OUT ?? 'bench/results/latest.json'),
    overhead: {
      iterations: pick(e.BENCH_OVERHEAD_ITERATIONS, 10, 5, 2),
      runs: pick(e.BENCH_OVERHEAD_RUNS, 30, 5, 1),
      warmup: pick(e.BENCH_OVERHEAD_WARMUP, 3, 1, 0),
    },
    peers: {
      names: e.BENCH_PEERS ?? PEER_NAMES,
      dir: path.resolve(projectRoot, e.BENCH_PEERS_DIR ?? 'bench/peers'),
      timeoutMs: pick(e.BENCH_PEER_TIMEOUT_MS, 600_000, 180_000),
    },
    scale: {
      runs: pick(e.BENCH_SCALE_RUNS, [200, 1000], [50], [5]),
      // A single pair is not a measurement (DESIGN.md, bench defaults): three, interleaved, but at the smoke's size.
      repeats: pick(e.BENCH_SCALE_REPEATS, 3, 3, 1),
      iterations: pick(e.BENCH_SCALE_ITERATIONS, 5, 5, 2),
      modelMs: pick(e.BENCH_SCALE_MODEL_MS, 200, 200),
      timeoutMs: pick(e.BENCH_SCALE_TIMEOUT_MS, 900_000, 180_000),
      workerOptions: e.BENCH_SCALE_WORKER_OPTIONS ?? {},
      nodeArgs: e.BENCH_SCALE_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
    },
    workers: {
      runs: pick(e.BENCH_WORKERS_RUNS, 1000, 50, 5),
      processes: pick(e.BENCH_WORKERS_PROCESSES, [1, 2], [1, 2]),
    },
    server: e.BENCH_TEMPORAL_ADDRESS
      ? { address: e.BENCH_TEMPORAL_ADDRESS, namespace: e.BENCH_TEMPORAL_NAMESPACE ?? 'default' }
      : undefined,
    seeing: {
      chainIterations: pick(e.BENCH_CHAIN_ITERATIONS, 250, 25, 5),
      queries: pick(e.BENCH_CHAIN_QUERIES, 100, 20, 3),
      watchIterations: pick(e.BENCH_WATCH_ITERATIONS, 30, 8, 3),
      pollMs: pick(e.BENCH_WATCH_POLL_MS, [300, 50], [300, 50]),
      watchModelMs: pick(e.BENCH_WATCH_MODEL_MS, 50, 50),
    },
    push: {
      iterations: pick(e.BENCH_PUSH_ITERATIONS, 20, 5, 2),
      watchers: pick(e.BENCH_PUSH_WATCHERS, [1, 50], [1, 50], [1, 2]),
      gapMs: pick(e.BENCH_PUSH_GAP_MS, 20, 20),
      idleStreams: pick(e.BENCH_PUSH_IDLE_STREAMS, 10_000, 1_000, 10),
      idleRuns: pick(e.BENCH_PUSH_IDLE_RUNS, 20, 5, 1),
    },
    history: {
      iterations: pick(e.BENCH_HISTORY_ITERATIONS, [10, 100, 1000], [10, 30], [3]),
      observationBytes: pick(e.BENCH_HISTORY_OBSERVATION_BYTES, [1024, 10_240], [1024, 10_240], [1024]),
    },
    longRun: {
      iterations: pick(e.BENCH_LONG_RUN_ITERATIONS, 10_000, 300, 20),
      observationBytes: pick(e.BENCH_LONG_RUN_OBSERVATION_BYTES, 2048, 2048),
    },
    idle: {
      cachedRuns: pick(e.BENCH_IDLE_CACHED_RUNS, 1_000, 100, 5),
      evictedRuns: pick(e.BENCH_IDLE_EVICTED_RUNS, 10_000, 500, 10),
    },
    evaluation: {
      units: pick(e.BENCH_EVAL_UNITS, 1_000, 50, 5),
      concurrency: pick(e.BENCH_EVAL_CONCURRENCY, 16, 8, 4),
    },
    store: {
      steps: pick(e.BENCH_STORE_STEPS, 10_000, 1_000, 300),
      reads: pick(e.BENCH_STORE_READS, 100, 20, 3),
      searchRuns: pick(e.BENCH_STORE_SEARCH_RUNS, 1_000, 100, 5),
    },
    cancel: { runs: pick(e.BENCH_CANCEL_RUNS, 10, 10, 2) },
    runPage: {
      iterations: pick(e.BENCH_PAGE_ITERATIONS, 1_000, 200, 20),
      loads: pick(e.BENCH_PAGE_LOADS, 20, 10, 3),
    },
    runList: {
      runs: pick(e.BENCH_LIST_RUNS, 100_000, 5_000, 500),
      reads: pick(e.BENCH_LIST_READS, 10, 5, 1),
    },
  });
}
