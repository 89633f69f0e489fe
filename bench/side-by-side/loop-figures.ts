import { quantile } from '../lib/stats';
import type { Step } from './step-marks';

/** One measured run of the loop: its steps and when the caller asked and got the answer. */
export interface MeasuredRun {
  requestedAt: number;
  returnedAt: number;
  steps: Step[];
}

export interface Percentiles {
  p50: number;
  p75: number;
  p95: number;
  samples: number;
}

export const percentiles = (samples: readonly number[]): Percentiles | undefined =>
  samples.length === 0
    ? undefined
    : {
        p50: quantile(samples, 0.5),
        p75: quantile(samples, 0.75),
        p95: quantile(samples, 0.95),
        samples: samples.length,
      };

/** Time to first step (Vercel's term): from the start call to the first step's body running. */
export const timeToFirstStep = (run: MeasuredRun): number => run.steps[0]!.start - run.requestedAt;

/**
 * Step-to-step overhead after step `i` (1-based, Vercel's term): from step i's body returning to
 * step i+1's body starting. Everything the engine does between two steps is in it: recording the
 * result, deciding, scheduling, dispatching.
 */
export function gapsAt(runs: readonly MeasuredRun[], index: number, window: number): number[] {
  const gaps: number[] = [];
  for (const run of runs)
    for (let i = index; i < index + window && i < run.steps.length; i++)
      gaps.push(run.steps[i]!.start - run.steps[i - 1]!.end);
  return gaps;
}

/** Workflow overhead: the run's wall time (start call to answer) less the time inside its steps. */
export const overheadOf = (run: MeasuredRun): number =>
  run.returnedAt - run.requestedAt - run.steps.reduce((sum, s) => sum + (s.end - s.start), 0);

/**
 * The slope of step-to-step overhead in the step index, by least squares over every gap of every
 * run, in ms per 100 steps; and as a share of the first steps' overhead (the issue's "under 1%").
 */
export function overheadSlope(
  runs: readonly MeasuredRun[],
): { msPer100Steps: number; shareOfFirst: number } | undefined {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const run of runs)
    for (let i = 1; i < run.steps.length; i++) {
      xs.push(i);
      ys.push(run.steps[i]!.start - run.steps[i - 1]!.end);
    }
  if (xs.length < 3) return undefined;
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let k = 0; k < xs.length; k++) {
    num += (xs[k]! - mx) * (ys[k]! - my);
    den += (xs[k]! - mx) ** 2;
  }
  const slope = den === 0 ? 0 : num / den;
  const first = quantile(gapsAt(runs, 1, 10), 0.5);
  return { msPer100Steps: slope * 100, shareOfFirst: first > 0 ? (slope * 100) / first : 0 };
}
