import { describe, expect, it } from 'vitest';
import { soakChecks } from '../../bench/soak/soak-checks';
import { memoryVerdicts } from '../../bench/soak/soak-minutes';
import type { SoakMinute } from '../../bench/soak/soak-report-types';
import type { SoakRun } from '../../bench/soak/soak-runs';
import type { SoakWatch } from '../../bench/soak/soak-watcher';
import type { EffectAttempt } from '../chaos/lib/fake-external-service';

/**
 * The soak's zero checks (bench/soak/soak-checks.ts) on hand-built records: each kind of loss
 * the soak promises to catch is caught by its own check, and a clean record passes all of them.
 */
const watch = (runId: string, steps: number[], ending = 'completed'): SoakWatch =>
  ({ runId, steps, ending, reconnects: 0, done: Promise.resolve(), close: () => {} }) as SoakWatch;

const run = (label: string, steps: number, over: Partial<SoakRun> = {}): SoakRun => ({
  label,
  kind: 'short',
  runId: `run-${label}`,
  expected: 'finished',
  stepsExpected: steps,
  requestedAt: 0,
  endedAt: 1_000,
  ending: 'finished',
  chainSteps: [1, 2, 3, 4],
  watch: watch(`run-${label}`, [1, 2, 3, 4]),
  ...over,
});

/** An attempt at the service; the key is `<workflow id>:<step id>` as the tools send it. */
const attempt = (label: string, step: number, o: { key?: string; applied?: boolean } = {}): EffectAttempt => ({
  key: o.key ?? `run-${label}:step-${step}`,
  tool: 'slow_job',
  args: { run: label, step },
  at: 0,
  applied: o.applied ?? true,
  held: false,
});

const clean = () => ({
  runs: [run('a', 2), run('b', 1)],
  poolWatches: [watch('run-a', [1, 2, 3, 4])],
  attempts: [attempt('a', 0), attempt('a', 1), attempt('b', 0), attempt('a', 1, { applied: false })],
});

describe('the soak zero checks', () => {
  it('pass a clean record: a repeat the service deduplicated by its key is not a duplicate', () => {
    const { totals, problems } = soakChecks(clean());
    expect(problems).toEqual([]);
    expect(totals).toMatchObject({
      started: 2,
      ended: { finished: 2 },
      lost: 0,
      unexpectedEndings: 0,
      duplicateEffects: 0,
      strangerRuns: 0,
      missingEffects: 0,
      watcherMissed: 0,
      watcherRepeated: 0,
      watchersFollowed: 3,
    });
  });

  it('count a step applied twice under two keys (a completed call repeated) as a duplicate', () => {
    const input = clean();
    // Another step id of the same run and step: the workflow made the call again and the service applied it.
    input.attempts.push(attempt('a', 1, { key: 'run-a:another-step-id' }));
    const { totals, problems } = soakChecks(input);
    expect(totals.duplicateEffects).toBe(1);
    expect(problems).toEqual(['side effect run-a#1 applied 2 times']);
  });

  it('count a run that applied effects unasked (a start made twice) as a stranger, not a sub-agent of a known run', () => {
    const input = clean();
    input.attempts.push(attempt('a', 0, { key: 'run-a/helper-1:step-0' }));
    expect(soakChecks(input).totals.strangerRuns).toBe(0);
    input.attempts.push(attempt('a', 0, { key: 'run-a-again:step-0' }));
    const { totals, problems } = soakChecks(input);
    expect(totals.strangerRuns).toBe(1);
    expect(problems).toContain('run-a-again applied side effects, but the soak never started it');
  });

  it('count a finished run missing a step as a missing effect', () => {
    const input = clean();
    input.attempts = input.attempts.filter((a) => !(a.args['run'] === 'a' && a.args['step'] === 1));
    const { totals, problems } = soakChecks(input);
    expect(totals.missingEffects).toBe(1);
    expect(problems).toEqual(['a (run-a) finished with 1 of its 2 side effects applied: steps [0]']);
  });

  it('count a run that never ended as lost, and one that ended otherwise as unexpected', () => {
    const input = clean();
    input.runs.push(run('c', 1, { endedAt: undefined, ending: undefined, chainSteps: undefined, watch: undefined }));
    input.runs.push(run('d', 0, { ending: 'failed', problem: 'ended failed, expected finished' }));
    const { totals, problems } = soakChecks(input);
    expect(totals.lost).toBe(1);
    expect(totals.unexpectedEndings).toBe(1);
    expect(problems).toContain('c (run-c) lost: no ending');
    expect(problems).toContain('d (run-d): ended failed, expected finished');
  });

  it('count a step a watcher missed, one it saw twice, and one out of order', () => {
    const input = clean();
    input.poolWatches = [watch('run-a', [1, 3, 4]), watch('run-b', [1, 2, 2, 3, 4]), watch('run-a', [1, 3, 2, 4])];
    const { totals, problems } = soakChecks(input);
    expect(totals.watcherMissed).toBe(1);
    expect(totals.watcherRepeated).toBe(1);
    expect(problems).toHaveLength(3);
  });
});

describe('memory verdicts', () => {
  const minutes = (rss: Array<number | undefined>): SoakMinute[] =>
    rss.map((rssMb, i) => ({
      minute: i + 1,
      started: 0,
      ended: {},
      open: 0,
      processes: (rssMb === undefined ? {} : { worker: { rssMb } }) as SoakMinute['processes'],
    }));

  it('judge growth from the end of settling to the last reading, against the bound', () => {
    // The first reading is a partial minute; settling ends at the third.
    expect(memoryVerdicts(minutes([100, 300, 200, 210, 250]), 2, 20)).toEqual([
      { process: 'worker', settledMb: 200, lastMb: 250, growthPct: 25, withinBound: false },
    ]);
    expect(memoryVerdicts(minutes([100, 300, 200, 210, 230]), 2, 20)[0]!.withinBound).toBe(true);
  });

  it('give no verdict on a process that did not live two minutes past settling', () => {
    expect(memoryVerdicts(minutes([undefined, 100, 200, 300, 400]), 2, 20)).toEqual([]);
  });
});
