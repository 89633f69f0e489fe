import fs from 'node:fs';
import path from 'node:path';
import { callEngine, type EngineSpec } from './engine-process';
import {
  gapsAt,
  overheadOf,
  overheadSlope,
  percentiles,
  timeToFirstStep,
  type MeasuredRun,
  type Percentiles,
} from './loop-figures';
import type { RecoverSizes, SideBySideConfig } from './side-by-side-config';
import { median } from '../lib/stats';
import { readMarks, stepsOf } from './step-marks';
import type { TreeUsage } from './process-tree-usage';

/** What the scenarios share: where to put files, the infra request, and a logger. */
export interface ScenarioContext {
  workDir: string;
  infra: Record<string, unknown>;
  timeoutMs: number;
  log(line: string): void;
}

interface LoopReply {
  engine: string;
  version: string;
  runs: Array<{ id: string; requestedAt: number; returnedAt: number; answer: string; maxInputTokens: number }>;
}

/** Runs the loop scenario and reads every run's marks; a run whose marks miss a step is refused. */
async function measuredLoop(
  ctx: ScenarioContext,
  engine: EngineSpec,
  args: { runs: number; iterations: number; modelDelayMs: number; observationBytes: number },
): Promise<{ version: string; runs: MeasuredRun[] }> {
  const marksDir = fs.mkdtempSync(path.join(ctx.workDir, `marks-${engine.name}-`));
  // Every engine warms up with a run as long as the measured one: with 5 warm-up iterations for some
  // engines and the whole length for others, a long run's first steps compared cold code with warm.
  const { reply } = await callEngine<LoopReply>(
    engine,
    { scenario: 'loop', ...args, warmupIterations: args.iterations, marksDir, infra: ctx.infra },
    ctx,
  );
  const runs = reply.runs.map((r) => {
    const steps = stepsOf(readMarks(marksDir, r.id), args.iterations);
    if ('problem' in steps) throw new Error(`${engine.name} run ${r.id}: ${steps.problem}`);
    return { requestedAt: r.requestedAt, returnedAt: r.returnedAt, steps: steps.steps };
  });
  fs.rmSync(marksDir, { recursive: true, force: true });
  return { version: reply.version, runs };
}

export interface StepFigures {
  version: string;
  timeToFirstStepMs?: Percentiles;
  gaps: Record<number, Percentiles | undefined>;
  slope?: { msPer100Steps: number; shareOfFirst: number };
  fiveTurnOverheadMs?: Percentiles;
  fiveTurnWallMs?: Percentiles;
}

/**
 * Five-turn runs, then long runs, each in rounds (each round runs every engine, alternated, so a
 * slow moment of the machine falls on all of them): time to first step, step-to-step overhead at
 * the step indices, its slope, and a five-turn loop's overhead. `freshServer`, when given, runs
 * before each round of long runs: the Temporal loops' long runs (warm-up and measured, each
 * conversation whole in its history) filled one in-memory dev server past the machine's memory.
 */
export async function measureSteps(
  ctx: ScenarioContext,
  engines: readonly EngineSpec[],
  config: SideBySideConfig,
  errors: Record<string, string[]>,
  notes: Record<string, string[]>,
  freshServer?: () => Promise<void>,
): Promise<Record<string, StepFigures>> {
  const five: Record<string, MeasuredRun[]> = {};
  const long: Record<string, MeasuredRun[]> = {};
  const versions: Record<string, string> = {};
  const attempt = async (engine: EngineSpec, what: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      (errors[engine.name] ??= []).push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  const fiveRounds = config.five.rounds ?? 1;
  const perRound = Math.ceil(config.five.runs / fiveRounds);
  for (let round = 0; round < fiveRounds; round++) {
    for (const engine of round % 2 === 0 ? engines : [...engines].reverse()) {
      ctx.log(
        `steps: ${engine.name}, ${perRound} five-turn runs${fiveRounds > 1 ? ` (round ${round + 1}/${fiveRounds})` : ''}`,
      );
      await attempt(engine, `five-turn runs${fiveRounds > 1 ? `, round ${round + 1}` : ''}`, async () => {
        const r = await measuredLoop(ctx, engine, {
          runs: perRound,
          iterations: 5,
          modelDelayMs: config.five.modelDelayMs,
          observationBytes: 1024,
        });
        (five[engine.name] ??= []).push(...r.runs);
        versions[engine.name] = r.version;
      });
    }
  }
  for (let round = 0; round < config.steps.rounds; round++) {
    await freshServer?.();
    for (const engine of round % 2 === 0 ? engines : [...engines].reverse()) {
      ctx.log(
        `steps: round ${round + 1}/${config.steps.rounds}, ${engine.name}, ${config.steps.iterations} iterations`,
      );
      const iterations = Math.min(config.steps.iterations, engine.longRunCap?.iterations ?? Infinity);
      if (round === 0 && iterations < config.steps.iterations)
        (notes[engine.name] ??= []).push(`long runs cut to ${iterations} iterations: ${engine.longRunCap!.why}`);
      await attempt(engine, `long run, round ${round + 1}`, async () => {
        const r = await measuredLoop(ctx, engine, {
          runs: 1,
          iterations,
          modelDelayMs: config.steps.modelDelayMs,
          observationBytes: 1024,
        });
        (long[engine.name] ??= []).push(...r.runs);
        versions[engine.name] ??= r.version;
      });
    }
  }
  const out: Record<string, StepFigures> = {};
  for (const engine of engines) {
    const f = five[engine.name] ?? [];
    const l = long[engine.name] ?? [];
    if (!f.length && !l.length) continue;
    out[engine.name] = {
      version: versions[engine.name] ?? '',
      timeToFirstStepMs: percentiles([...f, ...l].map(timeToFirstStep)),
      gaps: Object.fromEntries(config.steps.indices.map((i) => [i, percentiles(gapsAt(l, i, config.steps.window))])),
      ...(overheadSlope(l) ? { slope: overheadSlope(l)! } : {}),
      fiveTurnOverheadMs: percentiles(f.map(overheadOf)),
      fiveTurnWallMs: percentiles(f.map((r) => r.returnedAt - r.requestedAt)),
    };
  }
  return out;
}

interface StateReply {
  id: string;
  answer: string;
  storedBytes: number;
  stored: string;
  maxInputTokens: number;
}

export interface StateFigures {
  stored: string;
  perIteration: Array<{ label: string; bytesPerIteration: number; maxInputTokens: number }>;
  /** Run ids by length, for Temporal engines' billable actions. */
  runs: Array<{ id: string; iterations: number; observationBytes: number; storedBytes: number }>;
}

/** Stored bytes of runs of two lengths at each observation size; their difference per iteration. */
export async function measureState(
  ctx: ScenarioContext,
  engine: EngineSpec,
  config: SideBySideConfig,
): Promise<StateFigures> {
  const runs: StateFigures['runs'] = [];
  const perIteration: StateFigures['perIteration'] = [];
  let stored = '';
  const cache = new Map<string, StateReply>();
  const one = async (iterations: number, observationBytes: number): Promise<StateReply> => {
    const key = `${iterations}x${observationBytes}`;
    if (!cache.has(key)) {
      ctx.log(`state: ${engine.name}, ${iterations} iterations x ${observationBytes} bytes`);
      const { reply } = await callEngine<StateReply>(
        engine,
        { scenario: 'state', iterations, observationBytes, modelDelayMs: 0, infra: ctx.infra },
        ctx,
      );
      cache.set(key, reply);
      runs.push({ id: reply.id, iterations, observationBytes, storedBytes: reply.storedBytes });
      stored = reply.stored;
    }
    return cache.get(key)!;
  };
  const cap = engine.longRunCap?.iterations ?? Infinity;
  for (const pair of config.state.filter((p) => p.to <= cap)) {
    const a = await one(pair.from, pair.observationBytes);
    const b = await one(pair.to, pair.observationBytes);
    perIteration.push({
      label: pair.label,
      bytesPerIteration: (b.storedBytes - a.storedBytes) / (pair.to - pair.from),
      maxInputTokens: b.maxInputTokens,
    });
  }
  return { stored, perIteration, runs };
}

interface RecoverReply {
  id: string;
  answer: string;
  killedAt: number;
  replacementStartedAt: number;
  note?: string;
}

export interface RecoverFigures {
  /** From the kill to the next step body starting in the replacement (the killed step, tried again). */
  recoveryMs?: number;
  /**
   * From the kill to the step after the killed one starting, less the retried step's own time:
   * all the run lost, including stalls after the retry (Temporal's sticky queue timeout).
   */
  lostMs?: number;
  /** Steps whose body returned more than once: work done twice. */
  stepsEndedTwice: number;
  /** Attempts of the step that was killed (2 when it ran again). */
  killedStepStarts: number;
  answered: boolean;
  note?: string;
}

export async function measureRecovery(
  ctx: ScenarioContext,
  engine: EngineSpec,
  recover: RecoverSizes,
): Promise<RecoverFigures> {
  const marksDir = fs.mkdtempSync(path.join(ctx.workDir, `recover-${engine.name}-`));
  ctx.log(`recover: ${engine.name}, killed mid-tool at iteration ${recover.killAt}`);
  const { reply } = await callEngine<RecoverReply>(
    engine,
    { scenario: 'recover', ...recover, marksDir, infra: ctx.infra },
    ctx,
  );
  const marks = readMarks(marksDir, reply.id);
  const after = marks.filter((m) => m.phase === 'start' && m.t > reply.killedAt).map((m) => m.t);
  const ends = new Map<string, number>();
  for (const m of marks)
    if (m.phase === 'end') ends.set(`${m.kind}${m.index}`, (ends.get(`${m.kind}${m.index}`) ?? 0) + 1);
  const killed = marks.filter((m) => m.kind === 'tool' && m.index === recover.killAt && m.phase === 'start');
  const retryStart = Math.max(...killed.map((m) => m.t));
  const retryEnd = marks.find((m) => m.kind === 'tool' && m.index === recover.killAt && m.phase === 'end')?.t;
  const next = marks.find((m) => m.kind === 'model' && m.index === recover.killAt && m.phase === 'start')?.t;
  const lostMs =
    retryEnd !== undefined && next !== undefined ? next - reply.killedAt - (retryEnd - retryStart) : undefined;
  fs.rmSync(marksDir, { recursive: true, force: true });
  return {
    ...(after.length ? { recoveryMs: Math.min(...after) - reply.killedAt } : {}),
    ...(lostMs !== undefined ? { lostMs } : {}),
    stepsEndedTwice: [...ends.values()].filter((n) => n > 1).length,
    killedStepStarts: killed.length,
    answered: typeof reply.answer === 'string' && reply.answer.length > 0,
    ...(reply.note ? { note: reply.note } : {}),
  };
}

interface ConcurrentReply {
  completed: number;
  wrongAnswers: number;
  wallMs: number;
}

export interface ConcurrentFigures {
  runs: number;
  wallMs: number;
  /** CPU of the engine's processes and its servers for the N runs, less that of one run (start-up). */
  cpuMs: number;
  peakRssBytes: number;
  one: TreeUsage;
  /** How many rounds each figure is the median of (medianConcurrent). */
  rounds?: number;
}

/** Each figure the median of the engine's rounds (the order alternated between them: run-side-by-side.ts). */
export function medianConcurrent(rounds: readonly ConcurrentFigures[]): ConcurrentFigures {
  const of = (pick: (f: ConcurrentFigures) => number) => median(rounds.map(pick));
  return {
    runs: rounds[0]!.runs,
    wallMs: of((f) => f.wallMs),
    cpuMs: of((f) => f.cpuMs),
    peakRssBytes: of((f) => f.peakRssBytes),
    one: rounds[0]!.one,
    rounds: rounds.length,
  };
}

export async function measureConcurrent(
  ctx: ScenarioContext,
  engine: EngineSpec,
  config: SideBySideConfig,
): Promise<ConcurrentFigures> {
  const args = {
    scenario: 'concurrent',
    iterations: config.concurrent.iterations,
    modelDelayMs: config.concurrent.modelDelayMs,
    observationBytes: 1024,
    infra: ctx.infra,
  };
  const runs = Math.min(config.concurrent.runs, engine.concurrentCap?.runs ?? Infinity);
  ctx.log(`concurrent: ${engine.name}, 1 run, then ${runs} at once`);
  const one = await callEngine<ConcurrentReply>(engine, { ...args, runs: 1 }, ctx);
  const many = await callEngine<ConcurrentReply>(engine, { ...args, runs }, ctx);
  if (many.reply.completed !== runs || many.reply.wrongAnswers > 0)
    throw new Error(
      `${many.reply.completed} of ${runs} runs completed, ${many.reply.wrongAnswers} with a wrong answer`,
    );
  return {
    runs,
    wallMs: many.reply.wallMs,
    cpuMs: many.usage.cpuMs - one.usage.cpuMs,
    peakRssBytes: many.usage.peakRssBytes,
    one: one.usage,
  };
}
