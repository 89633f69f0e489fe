import { describe, expect, it } from 'vitest';
import {
  compareWithBaseline,
  DatasetMismatchError,
  fisherLowerTail,
  normalCdf,
  proportionDropTest,
} from '../../../src/domain/evaluation/gate';
import { evaluation, unit } from '../../eval/report-fixture';

const cases = (n: number) => Array.from({ length: n }, (_, i) => `case-${i}`);

describe('the tests behind the gate', () => {
  it("Fisher's exact lower tail, by hand: 10/10 → 5/10 is 252 / 15504; 8/10 → 6/10 is 12180 / 38760", () => {
    expect(fisherLowerTail({ successes: 10, n: 10 }, { successes: 5, n: 10 })).toBeCloseTo(252 / 15504, 10);
    expect(fisherLowerTail({ successes: 8, n: 10 }, { successes: 6, n: 10 })).toBeCloseTo(12180 / 38760, 10);
    expect(fisherLowerTail({ successes: 10, n: 10 }, { successes: 9, n: 10 })).toBeCloseTo(0.5, 10);
  });

  it('the z-test for large counts: 80/100 → 60/100 is z = 3.086, p ≈ 0.00101', () => {
    const test = proportionDropTest({ successes: 80, n: 100 }, { successes: 60, n: 100 });
    expect(test.test).toBe('z');
    expect(test.pValue).toBeCloseTo(1 - normalCdf(0.2 / Math.sqrt(0.7 * 0.3 * 0.02)), 10);
    expect(test.pValue).toBeCloseTo(0.00101, 4);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(proportionDropTest({ successes: 9, n: 10 }, { successes: 5, n: 10 }).test).toBe('fisher');
  });
});

describe('compareWithBaseline', () => {
  it('one case breaking in a deterministic evaluation (repeat 1) fails the gate as a stable flip', () => {
    const baseline = evaluation(cases(10).map((id) => unit(id, 'offline', 0, true)));
    const current = evaluation(cases(10).map((id) => unit(id, 'offline', 0, id !== 'case-3')));
    const gate = compareWithBaseline(baseline, current);
    expect(gate.passed).toBe(false);
    expect(gate.regressions).toHaveLength(1);
    const flip = gate.regressions[0]!;
    expect(flip.kind).toBe('stable_flip');
    expect(flip.kind === 'stable_flip' && flip.caseId).toBe('case-3');
    expect(flip.why).toBe(
      'offline: case case-3 passed its one run in the baseline and fails its one run now: termination_accuracy: ended max_iterations; expected success',
    );
    // 10/10 → 9/10 is p = 0.5: no test calls it significant, and the notes say so.
    expect(
      gate.notes.some(
        (n) => n.includes('pass rate fell from 100.0% (10/10) to 90.0% (9/10)') && n.includes('p = 0.50'),
      ),
    ).toBe(true);
  });

  it('a noisy drop that is not significant passes: 8/10 → 6/10 with no case flipping', () => {
    // Five cases × two repeats; every case passes at least once now, so nothing flips.
    const before = [true, true, true, true, true, true, true, true, false, false];
    const now = [true, false, true, false, true, true, true, false, true, false];
    const build = (passes: boolean[]) =>
      evaluation(passes.map((p, i) => unit(`case-${Math.floor(i / 2)}`, 'v', i % 2, p)));
    const gate = compareWithBaseline(build(before), build(now));
    expect(gate.passed).toBe(true);
    expect(gate.regressions).toEqual([]);
    expect(gate.notes.find((n) => n.startsWith('v: pass rate'))).toMatch(
      /p = 0\.31 by Fisher's exact test, not under 0\.05: could be noise/,
    );
  });

  it('a significant drop fails the gate with the numbers and the test in its why', () => {
    const baseline = evaluation(cases(10).map((id) => unit(id, 'v', 0, true)));
    const current = evaluation(cases(10).map((id, i) => unit(id, 'v', 0, i < 5)));
    const gate = compareWithBaseline(baseline, current);
    const drop = gate.regressions.find((r) => r.kind === 'significant_drop' && r.measure === 'pass_rate');
    expect(drop?.why).toBe(
      "v: pass rate fell from 100.0% (10/10) to 50.0% (5/10); p = 0.016 by Fisher's exact test, under 0.05: a drop this large is unlikely to be noise.",
    );
    expect(gate.regressions.filter((r) => r.kind === 'stable_flip')).toHaveLength(5);
    expect(gate.regressions.some((r) => r.kind === 'significant_drop' && r.measure === 'completion')).toBe(true);
  });

  it('refuses another dataset unless told to compare anyway, and notes variants on one side only', () => {
    const baseline = evaluation([unit('a', 'v', 0, true), unit('a', 'old', 0, true)]);
    const current = evaluation([unit('a', 'v', 0, true), unit('a', 'new', 0, true)], {
      dataset: { name: 'loop', sha256: 'b'.repeat(64) },
    });
    expect(() => compareWithBaseline(baseline, current)).toThrow(DatasetMismatchError);
    expect(() => compareWithBaseline(baseline, current)).toThrow(/--baseline-any-dataset/);
    const gate = compareWithBaseline(baseline, current, { anyDataset: true });
    expect(gate.passed).toBe(true);
    expect(gate.notes).toEqual([
      'the datasets differ (--baseline-any-dataset): only cases in both are compared for flips.',
      'variant old is in the baseline but did not run now: not compared.',
      'variant new is new: no baseline to compare with.',
    ]);
  });

  it('a case skipped now (budget spent) is a note, not a flip', () => {
    const baseline = evaluation([unit('a', 'v', 0, true), unit('b', 'v', 0, true)]);
    const current = evaluation([unit('a', 'v', 0, true), unit('b', 'v', 0, false, { status: 'skipped', scores: [] })]);
    const gate = compareWithBaseline(baseline, current);
    expect(gate.regressions.filter((r) => r.kind === 'stable_flip')).toEqual([]);
    expect(gate.notes).toContain('v: case b passed in the baseline and did not run now.');
  });
});
