import { describe, expect, it } from 'vitest';
import { checkRatios, gateReport, GATE_BOUNDS } from '../../bench/side-by-side/ratio-gate';
import { GATE_STATE_LABEL, loadSideBySideConfig } from '../../bench/side-by-side/side-by-side-config';
import type { EngineResults, SideBySideResults } from '../../bench/side-by-side/side-by-side-results';

/**
 * The ratio gate's verdicts on hand-written results (bench/side-by-side/ratio-gate.ts): no bench
 * runs here, and no figure of a machine is asserted, only how the gate treats the numbers it is given.
 */
const p = (p50: number) => ({ p50, p75: p50, p95: p50, samples: 20 });

function engine(
  name: string,
  ms: { ttfs: number; gap: number; five: number; cpu: number; wall: number },
  bytes: number,
): EngineResults {
  return {
    name,
    title: name,
    steps: {
      version: '',
      timeToFirstStepMs: p(ms.ttfs),
      gaps: { 1: p(ms.gap), 10: p(ms.gap) },
      fiveTurnOverheadMs: p(ms.five),
    },
    state: {
      stored: '',
      runs: [],
      perIteration: [{ label: GATE_STATE_LABEL, bytesPerIteration: bytes, maxInputTokens: 65000 }],
    },
    concurrent: { runs: 50, wallMs: ms.wall, cpuMs: ms.cpu, peakRssBytes: 1, one: { cpuMs: 0, peakRssBytes: 1 } },
    errors: [],
    notes: [],
  };
}

const bare = () => engine('temporal-bare', { ttfs: 20, gap: 10, five: 150, cpu: 3000, wall: 2000 }, 250_000);
/** Today's healthy ratios, about: TTFS 2x, gaps 1.2x, five-turn 1.3x, stored 0.064x, CPU 1.4x. */
const healthy = () => engine('thoughtline', { ttfs: 40, gap: 12, five: 200, cpu: 4200, wall: 3000 }, 16_000);

function results(engines: EngineResults[]): SideBySideResults {
  return {
    date: '',
    commit: '',
    quick: true,
    machine: {},
    versions: {},
    config: {},
    engines,
    infraErrors: [],
    wallSeconds: 1,
  };
}

const failed = (r: SideBySideResults) => checkRatios(r).verdicts.filter((v) => !v.ok);

describe('the ratio gate', () => {
  it('passes a run whose every ratio is within its bound, and says so', () => {
    const verdict = checkRatios(results([healthy(), bare()]));
    expect(verdict.problems).toEqual([]);
    expect(verdict.verdicts.map((v) => [v.figure, v.ok])).toEqual(GATE_BOUNDS.map((b) => [b.figure, true]));
    expect(verdict.ok).toBe(true);
    expect(verdict.verdicts[0]!.ratio).toBeCloseTo(2, 6);
    expect(gateReport(verdict)).toContain('Every ratio is within its bound.');
  });

  it('fails a doubled step cost, naming the figure and both values', () => {
    const slow = healthy();
    slow.steps!.gaps[10] = p(25);
    const verdict = checkRatios(results([slow, bare()]));
    expect(verdict.ok).toBe(false);
    const [gap] = failed(results([slow, bare()]));
    expect(gap!.figure).toBe('step-to-step overhead at step 10, p50');
    expect(gap!.ratio).toBeCloseTo(2.5, 6);
    expect(gap!.problem).toBe(
      'step-to-step overhead at step 10, p50: 2.50x the bare loop, over the bound of 2x (Thoughtline 25.0 ms, the bare SDK loop 10.0 ms)',
    );
    expect(gateReport(verdict)).toContain(`- ${gap!.problem}`);
    expect(gateReport(verdict)).toContain('**FAIL**');
  });

  it('fails when Thoughtline stores what it stores twice over', () => {
    const heavy = healthy();
    heavy.state!.perIteration[0]!.bytesPerIteration *= 2;
    expect(failed(results([heavy, bare()])).map((v) => v.figure)).toEqual([
      `stored per iteration, ${GATE_STATE_LABEL}`,
    ]);
  });

  it('fails closed when a figure is missing on either side', () => {
    const noFive = healthy();
    delete noFive.steps!.fiveTurnOverheadMs;
    const [five] = failed(results([noFive, bare()]));
    expect(five!.problem).toBe(
      'five-turn loop overhead, p50: not measured for both engines (Thoughtline — ms, the bare SDK loop 150 ms)',
    );
    const noState = bare();
    delete noState.state;
    expect(failed(results([healthy(), noState])).map((v) => v.figure)).toEqual([
      `stored per iteration, ${GATE_STATE_LABEL}`,
    ]);
  });

  it('fails closed when the bare figure is 0, or not a number', () => {
    const zero = bare();
    zero.steps!.gaps[1] = p(0);
    const [gap] = failed(results([healthy(), zero]));
    expect(gap!.figure).toBe('step-to-step overhead at step 1, p50');
    expect(gap!.ratio).toBeUndefined();
    expect(gap!.problem).toContain('the bare loop measured no positive value, so there is no ratio');
    const nan = bare();
    nan.concurrent!.cpuMs = Number.NaN;
    expect(failed(results([healthy(), nan]))[0]!.problem).toContain('not measured for both engines');
  });

  it('fails every figure when an engine is absent, and a run whose engine reported an error', () => {
    const alone = checkRatios(results([healthy()]));
    expect(alone.ok).toBe(false);
    expect(alone.problems).toEqual(['no temporal-bare results in the file']);
    expect(alone.verdicts.every((v) => !v.ok)).toBe(true);
    const broken = healthy();
    broken.errors.push('concurrent: 49 of 50 runs completed');
    const verdict = checkRatios(results([broken, bare()]));
    expect(verdict.verdicts.every((v) => v.ok)).toBe(true);
    expect(verdict.problems).toEqual(['thoughtline: concurrent: 49 of 50 runs completed']);
    expect(verdict.ok).toBe(false);
  });

  it('refuses to compare concurrent figures measured at different sizes', () => {
    const fewer = healthy();
    fewer.concurrent!.runs = 10;
    expect(failed(results([fewer, bare()])).map((v) => v.problem)).toEqual([
      'concurrent runs: wall time: not comparable: measured at 10 and 50 concurrent runs (Thoughtline 3000 ms, the bare SDK loop 2000 ms)',
      'concurrent runs: CPU (engine and its servers): not comparable: measured at 10 and 50 concurrent runs (Thoughtline 4200 ms, the bare SDK loop 3000 ms)',
    ]);
  });

  it('is fed by gate sizes that measure every figure it checks', () => {
    const config = loadSideBySideConfig({ BENCH_GATE: '1' });
    expect(config.engines).toEqual(['thoughtline', 'temporal-bare']);
    expect(config.recover).toBeUndefined();
    expect(config.steps.indices).toEqual(expect.arrayContaining([1, 10]));
    // Each index's window of gaps fits in the long runs' 2 x iterations + 1 steps.
    expect(Math.max(...config.steps.indices) + config.steps.window).toBeLessThanOrEqual(
      2 * config.steps.iterations + 1,
    );
    expect(config.state.map((s) => s.label)).toEqual([GATE_STATE_LABEL]);
  });
});
