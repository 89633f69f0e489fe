import type { TokenUsage } from './usage';

/** USD per million tokens. `cacheWrite` is the 5-minute cache write price. */
export interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** Model id (without date suffix) → price. Pass your own to `priceFor` / `costOf` to override. */
export type PriceTable = Readonly<Record<string, Price>>;

// Keeps table entries equal to the listed prices (3 × 0.1 is 0.30000000000000004 in floats).
const listed = (usd: number): number => Math.round(usd * 1e6) / 1e6;

/** The common Anthropic ratios: cache write 1.25x input, cache read 0.1x input. */
const standard = (input: number, output: number): Price => ({
  input,
  output,
  cacheWrite: listed(input * 1.25),
  cacheRead: listed(input * 0.1),
});

/**
 * A snapshot of Anthropic's published list prices (platform.claude.com pricing and model pages,
 * late 2026), not a live feed: prices change, so callers may pass their own table, e.g.
 * `{ ...CLAUDE_PRICES, 'claude-sonnet-4-5': { ... } }`. Numbers are as listed, not re-derived,
 * where the listing departs from the standard ratios.
 * Not modelled: 1-hour cache writes (priced as 5-minute writes), batch discounts, regional and
 * long-context surcharges, fast mode. Deliberately absent: claude-haiku-5-5 (its price depends on
 * prompt length), so it reports as unknown rather than with a wrong cost.
 */
export const CLAUDE_PRICES: PriceTable = Object.freeze({
  'claude-fable-5-1': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 },
  'claude-mythos-5-1': { input: 10, output: 50, cacheWrite: 12.5, cacheRead: 0.25 },
  'claude-fable-5': standard(10, 50),
  'claude-mythos-5': standard(10, 50),
  'claude-opus-5-5': { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
  'claude-opus-5': standard(5, 25),
  'claude-sonnet-5-5': standard(2, 10),
  'claude-sonnet-5': standard(2, 10),
  'claude-opus-4-8': standard(5, 25),
  'claude-opus-4-7': standard(5, 25),
  'claude-opus-4-6': standard(5, 25),
  'claude-opus-4-5': standard(5, 25),
  'claude-opus-4-1': standard(15, 75),
  'claude-opus-4-0': standard(15, 75),
  'claude-opus-4': standard(15, 75),
  'claude-sonnet-4-6': standard(3, 15),
  'claude-sonnet-4-5': standard(3, 15),
  'claude-sonnet-4-0': standard(3, 15),
  'claude-sonnet-4': standard(3, 15),
  'claude-haiku-4-5': standard(1, 5),
  'claude-3-7-sonnet': standard(3, 15),
  'claude-3-5-sonnet': standard(3, 15),
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 },
  'claude-3-opus': standard(15, 75),
  'claude-3-haiku': { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 },
});

// What may follow a table key in a real model id: a snapshot date (`-20250929`), `-latest`,
// or a cloud version (`@20250805`). Requiring this stops `claude-opus-4` from matching
// `claude-opus-4-6`, which is priced differently.
const ID_SUFFIX = /^(-\d{8}|-latest|@.+)$/;

/** The price of `model`, matched exactly or by table key plus a date-like suffix; `undefined` if unknown. */
export function priceFor(model: string, table: PriceTable = CLAUDE_PRICES): Price | undefined {
  const exact = table[model];
  if (exact !== undefined) return exact;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (model.startsWith(key) && ID_SUFFIX.test(model.slice(key.length)) && key.length > (best?.length ?? 0))
      best = key;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * Cost in USD of one call. Unknown models cost 0 (check with `priceFor`); rounded to nano-dollars
 * so float noise never shows up in summed totals.
 */
export function costOf(model: string, usage: TokenUsage, table: PriceTable = CLAUDE_PRICES): number {
  const price = priceFor(model, table);
  if (price === undefined) return 0;
  const perMillion =
    usage.inputTokens * price.input +
    usage.outputTokens * price.output +
    usage.cacheWriteTokens * price.cacheWrite +
    usage.cacheReadTokens * price.cacheRead;
  return Math.round((perMillion / 1e6) * 1e9) / 1e9;
}
