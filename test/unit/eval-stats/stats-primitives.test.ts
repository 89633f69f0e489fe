import { describe, expect, it } from 'vitest';
import { meanInterval, passAtK, percentile, tQuantile95, wilsonInterval } from '../../../src/domain/evaluation/stats';

describe('the statistics an evaluation report rests on', () => {
  it("Wilson's interval: 8 of 10 is 0.490–0.943, and 0 of 5 is not zero-width", () => {
    const eight = wilsonInterval(8, 10)!;
    expect(eight.low).toBeCloseTo(0.4902, 3);
    expect(eight.high).toBeCloseTo(0.9433, 3);
    const none = wilsonInterval(0, 5)!;
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.4345, 3);
    expect(wilsonInterval(0, 0)).toBeUndefined();
  });

  it('a mean with a Student t interval: 0.6, 0.8, 1.0 is 0.8 ± 4.303 · 0.2 / √3', () => {
    const m = meanInterval([0.6, 0.8, 1.0])!;
    expect(m.value).toBeCloseTo(0.8, 10);
    expect(m.interval!.low).toBeCloseTo(0.8 - 0.49687, 4);
    expect(m.interval!.high).toBeCloseTo(0.8 + 0.49687, 4);
    expect(meanInterval([0.6, 0.8, 1.0], { lowest: 0, highest: 1 })!.interval!.high).toBe(1);
    expect(meanInterval([0.7])).toEqual({ value: 0.7 });
    expect(tQuantile95(11)).toBe(2.228); // between rows: the smaller df's, the wider interval
    expect(tQuantile95(5000)).toBe(1.962);
  });

  it('pass@k by the unbiased estimator 1 − C(n−c, k) / C(n, k)', () => {
    expect(passAtK(3, 1, 1)).toBeCloseTo(1 / 3, 10);
    expect(passAtK(3, 1, 2)).toBeCloseTo(2 / 3, 10);
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 10);
    expect(passAtK(3, 0, 3)).toBe(0);
    expect(passAtK(3, 3, 1)).toBe(1);
    expect(() => passAtK(2, 1, 3)).toThrow(RangeError);
  });

  it('nearest-rank percentiles are observed values', () => {
    const ten = [1000, 100, 200, 300, 400, 500, 600, 700, 800, 900];
    expect([percentile(ten, 0.5), percentile(ten, 0.9), percentile(ten, 0.95)]).toEqual([500, 900, 1000]);
    expect(percentile([], 0.5)).toBeUndefined();
  });
});
