import { describe, expect, it } from 'vitest';
import { CLAUDE_PRICES, costOf, priceFor, type PriceTable } from '../../src/activities/models/pricing';
import type { TokenUsage } from '../../src/domain';

const usage = (inputTokens: number, outputTokens: number, cacheWriteTokens = 0, cacheReadTokens = 0): TokenUsage => ({
  inputTokens,
  outputTokens,
  cacheWriteTokens,
  cacheReadTokens,
});

describe('priceFor', () => {
  it('matches exact ids, dated snapshots, -latest and cloud @versions', () => {
    expect(priceFor('claude-sonnet-4-5')).toEqual({ input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 });
    expect(priceFor('claude-sonnet-4-5-20250929')).toBe(CLAUDE_PRICES['claude-sonnet-4-5']);
    expect(priceFor('claude-3-5-haiku-latest')).toBe(CLAUDE_PRICES['claude-3-5-haiku']);
    expect(priceFor('claude-opus-4-1@20250805')).toBe(CLAUDE_PRICES['claude-opus-4-1']);
  });

  it('does not let a shorter id swallow a newer model priced differently', () => {
    expect(priceFor('claude-opus-4-20250514')?.input).toBe(15);
    expect(priceFor('claude-opus-4-6')?.input).toBe(5);
    expect(priceFor('claude-opus-4-9')).toBeUndefined();
  });

  it('returns undefined for unknown models', () => {
    expect(priceFor('gpt-4o')).toBeUndefined();
    expect(priceFor('claude-haiku-5-5')).toBeUndefined();
  });

  it('uses the ratios 1.25x (cache write) and 0.1x (cache read) where listed so', () => {
    for (const id of ['claude-opus-4-6', 'claude-sonnet-4-6', 'claude-haiku-4-5']) {
      const price = priceFor(id);
      expect(price?.cacheWrite).toBeCloseTo((price?.input ?? NaN) * 1.25, 9);
      expect(price?.cacheRead).toBeCloseTo((price?.input ?? NaN) * 0.1, 9);
    }
  });
});

describe('costOf', () => {
  it('sums all four token kinds at their prices', () => {
    // Haiku 4.5: $1 in, $5 out, $1.25 cache write, $0.10 cache read per million.
    expect(costOf('claude-haiku-4-5', usage(1_000_000, 1_000_000, 1_000_000, 1_000_000))).toBeCloseTo(7.35, 9);
    expect(costOf('claude-sonnet-4-6', usage(1000, 200))).toBeCloseTo(0.006, 9);
  });

  it('is 0 for an unknown model', () => {
    expect(costOf('claude-unreleased-9', usage(1_000_000, 1_000_000))).toBe(0);
  });

  it('has no float noise', () => {
    const cost = costOf('claude-3-haiku', usage(7, 3, 11, 13));
    expect(String(cost).length).toBeLessThan(14);
  });

  it('accepts an overriding table', () => {
    const table: PriceTable = {
      ...CLAUDE_PRICES,
      'my-proxy-model': { input: 2, output: 4, cacheWrite: 0, cacheRead: 0 },
    };
    expect(costOf('my-proxy-model', usage(500_000, 250_000), table)).toBeCloseTo(2, 9);
    expect(priceFor('my-proxy-model')).toBeUndefined();
  });
});
