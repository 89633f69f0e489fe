import { describe, expect, it } from 'vitest';
import { EvaluationSummary, summariseEvaluation, type TimeTargetSummary } from '../../../src/domain/evaluation/stats';
import type { UnitTimes } from '../../../src/domain/evaluation';
import { criteriaText } from '../../../src/eval/report';
import { evaluation, unit } from '../../eval/report-fixture';

const times = (t: Partial<UnitTimes>): UnitTimes => ({
  planningMs: 0,
  planningCalls: 0,
  reasoningPerIterationMs: 0,
  reasoningIterations: 0,
  ...t,
});

/** Seed 003's time targets, read from the units the variant's own model answered. */
describe('the time targets of an evaluation', () => {
  const units = [
    // Planned twice in 3 s (1.5 s a call); 400 ms an iteration; a simple task of 5 s.
    unit('simple', 'm', 0, true, {
      latencyMs: 5_000,
      times: times({ planningMs: 3_000, planningCalls: 2, reasoningPerIterationMs: 400, reasoningIterations: 3 }),
    }),
    // No planning; 2.5 s an iteration; not a simple case, so its 40 s does not count for the 30 s target.
    unit('long', 'm', 0, true, {
      latencyMs: 40_000,
      times: times({ reasoningPerIterationMs: 2_500, reasoningIterations: 4 }),
    }),
    // Replayed: no times kept, so its 90 s and its tag count for nothing.
    unit('replayed', 'm', 0, true, { latencyMs: 90_000 }),
    // A run that failed: its partial times are left out.
    unit('broken', 'm', 0, false, { status: 'failed', times: times({ planningMs: 60_000, planningCalls: 1 }) }),
  ];
  const result = evaluation(units, {
    cases: [
      { id: 'simple', tags: ['single-tool'] },
      { id: 'long', tags: ['multi-tool'] },
      { id: 'replayed', tags: ['simple', 'replay'] },
      { id: 'broken', tags: [] },
    ],
  });
  const summary = summariseEvaluation(result);
  const byId = (id: TimeTargetSummary['id']) => summary.variants[0]!.timeTargets.find((t) => t.id === id)!;

  it('reports p50 and p95 against each target, met only when the p95 is under it', () => {
    expect(EvaluationSummary.parse(summary)).toEqual(summary);
    expect(byId('planning')).toMatchObject({ underMs: 2_000, n: 1, p50: 1_500, p95: 1_500, status: 'met' });
    expect(byId('reasoning')).toMatchObject({ underMs: 1_000, n: 2, p50: 400, p95: 2_500, status: 'not_met' });
    expect(byId('simple_task')).toMatchObject({ underMs: 30_000, n: 1, p50: 5_000, p95: 5_000, status: 'met' });
  });

  it('is not measured, not met, when no unit the model answered bears on it', () => {
    const replayedOnly = summariseEvaluation(evaluation([unit('replayed', 'm', 0, true, { latencyMs: 10 })]));
    expect(replayedOnly.variants[0]!.timeTargets.map((t) => [t.id, t.status, t.n])).toEqual([
      ['planning', 'not_measured', 0],
      ['reasoning', 'not_measured', 0],
      ['simple_task', 'not_measured', 0],
    ]);
  });

  it('prints them in the terminal table beside the success criteria', () => {
    const text = criteriaText(summary);
    expect(text).toMatch(/Planning time +< 2\.0 s \(p95\) +p50 1\.5 s, p95 1\.5 s \(n 1\) met/);
    expect(text).toMatch(/Reasoning time per iteration +< 1\.0 s \(p95\) +p50 400 ms, p95 2\.5 s \(n 2\) NOT MET/);
    expect(text).toMatch(/Simple task, whole run +< 30\.0 s \(p95\) +p50 5\.0 s, p95 5\.0 s \(n 1\) met/);
  });
});
