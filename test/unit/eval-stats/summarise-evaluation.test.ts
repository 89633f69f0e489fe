import { describe, expect, it } from 'vitest';
import { EvaluationSummary, summariseEvaluation } from '../../../src/domain/evaluation/stats';
import type { Score } from '../../../src/domain/evaluation';
import { evaluation, unit } from '../../eval/report-fixture';

const judged = (value: number): Score => ({ scorer: 'judge', value, passed: value >= 0.9, why: 'graded' });
const termination = (passed: boolean): Score => ({
  scorer: 'termination_accuracy',
  value: passed ? 1 : 0,
  passed,
  why: 'x',
});

describe('summariseEvaluation', () => {
  // Two cases × three repeats of one variant; case b passes once, and one of its runs is skipped.
  const result = evaluation([
    unit('a', 'v1', 0, true, { scores: [termination(true), judged(1)], latencyMs: 100, costUsd: 0.02 }),
    unit('a', 'v1', 1, true, { scores: [termination(true), judged(0.8)], latencyMs: 200, costUsd: 0.02 }),
    unit('a', 'v1', 2, true, { scores: [termination(true), judged(0.9)], latencyMs: 300, costUsd: 0.02 }),
    unit('b', 'v1', 0, true, { scores: [termination(true), judged(0.6)], latencyMs: 400, costUsd: 0.04 }),
    unit('b', 'v1', 1, false, {
      scores: [termination(false), judged(0.8)],
      latencyMs: 500,
      costUsd: 0.04,
      iterations: 10,
    }),
    unit('b', 'v1', 2, false, { status: 'skipped', scores: [], costUsd: 0, tokens: 0, latencyMs: 0, iterations: 0 }),
  ]);
  const summary = summariseEvaluation(result);
  const v1 = summary.variants[0]!;

  it('counts units, and the pass rate is of the units that ran', () => {
    expect(EvaluationSummary.parse(summary)).toEqual(summary);
    expect(v1.units).toEqual({ total: 6, scored: 5, failed: 0, skipped: 1, passed: 4 });
    expect(v1.passRate!.value).toBeCloseTo(4 / 5, 10);
    expect(v1.passRate!.over).toBe('wilson');
  });

  it('completion is of all units, skipped ones included', () => {
    const completion = v1.criteria.find((c) => c.id === 'completion')!;
    expect(completion.estimate!.value).toBeCloseTo(4 / 6, 10);
    expect(completion.estimate!.n).toBe(6);
    expect(completion.status).toBe('not_met'); // 66.7% is not over 80%
  });

  it("completion counts a case that expects the run to give up, and gives up, as completed (the docs' weather dataset)", () => {
    const gaveUp = unit('atlantis', 'v1', 0, true, { terminationReason: 'failure', scores: [termination(true)] });
    const answered = unit('paris', 'v1', 0, true, { terminationReason: 'success', scores: [termination(true)] });
    const wrongEnd = unit('x', 'v1', 0, false, { terminationReason: 'success', scores: [termination(false)] });
    const completion = (units: ReturnType<typeof unit>[]) =>
      summariseEvaluation(evaluation(units)).variants[0]!.criteria.find((c) => c.id === 'completion')!;
    expect(completion([answered, gaveUp])).toMatchObject({ status: 'met', estimate: { value: 1 } });
    // A run that answered where its case expected it to give up did not do what was asked.
    expect(completion([answered, wrongEnd]).estimate!.value).toBe(0.5);
    // A result recorded without the termination score: success alone counts.
    const old = unit('y', 'v1', 0, true, { terminationReason: 'failure', scores: [] });
    expect(completion([answered, old]).estimate!.value).toBe(0.5);
  });

  it('coherence is the judge mean over repeats: per-repeat means 0.8, 0.8, 0.9', () => {
    const coherence = v1.criteria.find((c) => c.id === 'coherence')!;
    expect(coherence.source).toBe('judge');
    // repeat 0: (1 + 0.6) / 2 = 0.8; repeat 1: (0.8 + 0.8) / 2 = 0.8; repeat 2: 0.9
    expect(coherence.estimate!.value).toBeCloseTo(2.5 / 3, 10);
    expect(coherence.estimate!.over).toBe('repeats');
    // sd of (0.8, 0.8, 0.9) is 0.057735; 4.303 · 0.057735 / √3 = 0.14343
    expect(coherence.estimate!.interval!.low).toBeCloseTo(2.5 / 3 - 0.14343, 4);
    expect(coherence.status).toBe('not_met');
  });

  it('termination accuracy, iterations and recovery against their targets', () => {
    const byId = Object.fromEntries(v1.criteria.map((c) => [c.id, c]));
    expect(byId['termination_accuracy']!.estimate!.value).toBeCloseTo(0.8, 10);
    expect(byId['termination_accuracy']!.status).toBe('not_met');
    // shares 0.3, 0.3, 0.3, 0.3, 1.0 by repeat: (0.3 + 0.3)/2, (0.3 + 1)/2, 0.3 → mean 0.4333
    expect(byId['iteration_share']!.estimate!.value).toBeCloseTo((0.3 + 0.65 + 0.3) / 3, 10);
    expect(byId['iteration_share']!.status).toBe('met');
    expect(byId['recovery']!.status).toBe('not_measured');
  });

  it('pass@k over the cases with k runs, latency percentiles, cost per case', () => {
    // a: 3 of 3; b: 1 of 2 runs. pass@1 = (1 + 0.5) / 2; pass@2 = (1 + 1) / 2; pass@3 only a.
    expect(v1.passAtK).toEqual([
      { k: 1, value: 0.75, cases: 2 },
      { k: 2, value: 1, cases: 2 },
      { k: 3, value: 1, cases: 1 },
    ]);
    expect(v1.latencyMs).toEqual({ p50: 300, p90: 500, p95: 500 });
    expect(v1.costUsd.perCase).toBeCloseTo(0.14 / 5, 10);
    expect(v1.costUsd.total).toBeCloseTo(0.14, 10);
  });

  it('breaks the pass rate down by tag, over the units that ran', () => {
    const tagged = summariseEvaluation({
      ...result,
      cases: [
        { id: 'a', tags: ['easy'] },
        { id: 'b', tags: ['hard', 'easy'] },
      ],
    });
    expect(tagged.variants[0]!.byTag.map((t) => [t.tag, t.passRate.value, t.passRate.n])).toEqual([
      ['easy', 4 / 5, 5],
      ['hard', 1 / 2, 2],
    ]);
    expect(v1.byTag).toEqual([]);
  });

  it('lists built-in scorers first with their means and pass rates', () => {
    expect(v1.scorers.map((s) => s.scorer)).toEqual(['termination_accuracy', 'judge']);
    const judge = v1.scorers[1]!;
    expect(judge.mean.value).toBeCloseTo(2.5 / 3, 10);
    expect(judge.passed).toBe(2);
  });

  it('with one repeat the interval is over the units, and coherence falls back to the coherence scorer', () => {
    const one = summariseEvaluation(
      evaluation([
        unit('a', 'v', 0, true, { scores: [{ scorer: 'coherence', value: 1, passed: true, why: '' }] }),
        unit('b', 'v', 0, true, { scores: [{ scorer: 'coherence', value: 0.9, passed: true, why: '' }] }),
      ]),
    );
    const coherence = one.variants[0]!.criteria[0]!;
    expect(coherence.source).toBe('coherence');
    expect(coherence.estimate!.over).toBe('units');
    expect(coherence.estimate!.value).toBeCloseTo(0.95, 10);
    expect(coherence.status).toBe('met');
  });
});
