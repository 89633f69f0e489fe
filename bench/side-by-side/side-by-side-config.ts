import { z } from 'zod';

export const ENGINE_NAMES = [
  'thoughtline',
  'temporal-bare',
  'temporal-ai-sdk',
  'temporal-openai-agents',
  'vercel-workflow',
  'dbos',
  'restate',
  'langgraph-pg',
] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** The stored-state pair of quick sizes that the ratio gate measures and checks (ratio-gate.ts). */
export const GATE_STATE_LABEL = 'a model call at ~50k tokens';

/**
 * The sizes of every scenario; quick sizes keep `BENCH_QUICK=1 npm run bench:peers` within 5
 * minutes; gate sizes (`BENCH_GATE=1`, `npm run bench:gate`) keep the ratio gate within a minute.
 */
export interface SideBySideConfig {
  quick: boolean;
  /** The ratio gate's sizes: Thoughtline and the bare SDK loop only, and no recovery scenario. */
  gate: boolean;
  engines: EngineName[];
  out?: string;
  /** Long runs, one per engine per round, engines alternated: step-to-step overhead by step index. */
  steps: { iterations: number; rounds: number; modelDelayMs: number; indices: number[]; window: number };
  /** Five-turn runs: the whole loop's overhead, and time to first step. */
  five: { runs: number; modelDelayMs: number; rounds?: number };
  /** Absent at gate sizes: the gate does not check recovery, whose kill and timeouts take half a minute. */
  recover?: RecoverSizes;
  /** Pairs of run lengths at one observation size: stored bytes per iteration is their difference. */
  state: Array<{ from: number; to: number; observationBytes: number; label: string }>;
  /** `repeats`: rounds of every engine, the order alternated; each figure is the median of its rounds. */
  concurrent: { runs: number; iterations: number; modelDelayMs: number; repeats: number };
  timeoutMs: number;
}

export interface RecoverSizes {
  iterations: number;
  killAt: number;
  slowToolMs: number;
  modelDelayMs: number;
}

const Env = z.object({
  BENCH_QUICK: z.enum(['0', '1']).default('0'),
  BENCH_GATE: z.enum(['0', '1']).default('0'),
  BENCH_ENGINES: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(ENGINE_NAMES)))
    .optional(),
  BENCH_OUT: z.string().optional(),
  BENCH_STEPS_ITERATIONS: z.coerce.number().int().positive().optional(),
  BENCH_CONCURRENT_RUNS: z.coerce.number().int().positive().optional(),
  BENCH_CONCURRENT_REPEATS: z.coerce.number().int().positive().optional(),
});

export function loadSideBySideConfig(env: NodeJS.ProcessEnv): SideBySideConfig {
  const e = Env.parse(env);
  if (e.BENCH_GATE === '1') return gateConfig(e);
  const quick = e.BENCH_QUICK === '1';
  // 10 KB observations: about 100k tokens of conversation after 40 iterations, 200k after 80.
  const state = quick
    ? QUICK_STATE
    : [
        { from: 10, to: 20, observationBytes: 1024, label: '1 KB observations' },
        { from: 10, to: 20, observationBytes: 10240, label: '10 KB observations' },
        { from: 40, to: 45, observationBytes: 10240, label: 'a model call at ~100k tokens' },
        { from: 80, to: 85, observationBytes: 10240, label: 'a model call at ~200k tokens' },
      ];
  return {
    quick,
    gate: false,
    engines: e.BENCH_ENGINES ?? [...ENGINE_NAMES],
    ...(e.BENCH_OUT ? { out: e.BENCH_OUT } : {}),
    steps: {
      // 2K + 1 steps: 505 iterations reach step 1,010, so step 1,000 has a window of ten gaps.
      iterations: e.BENCH_STEPS_ITERATIONS ?? (quick ? 55 : 505),
      // Three rounds at full size: each figure from one process of each engine was a coin toss (issue 81).
      rounds: quick ? 1 : 3,
      modelDelayMs: 5,
      indices: quick ? [1, 10, 100] : [1, 10, 100, 1000],
      window: quick ? 5 : 10,
    },
    // 30 runs in three rounds, engines alternated: ten runs of one process moved the ratio by a fifth.
    five: quick ? { runs: 2, modelDelayMs: 5 } : { runs: 30, modelDelayMs: 5, rounds: 3 },
    recover: quick
      ? { iterations: 12, killAt: 10, slowToolMs: 1000, modelDelayMs: 5 }
      : { iterations: 60, killAt: 50, slowToolMs: 3000, modelDelayMs: 5 },
    state,
    concurrent: {
      runs: e.BENCH_CONCURRENT_RUNS ?? (quick ? 50 : 1000),
      iterations: 3,
      modelDelayMs: 100,
      // A single pair is not a measurement (DESIGN.md, bench defaults).
      repeats: e.BENCH_CONCURRENT_REPEATS ?? 3,
    },
    timeoutMs: quick ? 180_000 : 900_000,
  };
}

const QUICK_STATE: SideBySideConfig['state'] = [
  { from: 5, to: 10, observationBytes: 1024, label: '1 KB observations' },
  // 25 iterations of 10 KB: about 64k tokens.
  { from: 20, to: 25, observationBytes: 10240, label: GATE_STATE_LABEL },
];

/**
 * The ratio gate's sizes, under a minute on the 2-core machine: the figures it checks, no more.
 * More five-turn runs than quick sizes, in two rounds with the engines alternated (a busy moment
 * of the machine then falls on both), steady the time to first step and the five-turn overhead;
 * two short long runs give 20 gaps at each step index; one stored-state pair, whose ratio to the
 * bare loop's is deterministic, is enough.
 */
function gateConfig(e: z.infer<typeof Env>): SideBySideConfig {
  return {
    quick: true,
    gate: true,
    engines: e.BENCH_ENGINES ?? ['thoughtline', 'temporal-bare'],
    ...(e.BENCH_OUT ? { out: e.BENCH_OUT } : {}),
    steps: { iterations: e.BENCH_STEPS_ITERATIONS ?? 15, rounds: 2, modelDelayMs: 5, indices: [1, 10], window: 10 },
    five: { runs: 6, modelDelayMs: 5, rounds: 2 },
    state: QUICK_STATE.filter((pair) => pair.label === GATE_STATE_LABEL),
    concurrent: {
      runs: e.BENCH_CONCURRENT_RUNS ?? 50,
      iterations: 3,
      modelDelayMs: 100,
      repeats: e.BENCH_CONCURRENT_REPEATS ?? 3,
    },
    timeoutMs: 180_000,
  };
}
