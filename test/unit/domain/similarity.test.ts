import { describe, expect, it } from 'vitest';
import {
  alikeText,
  argumentFeatures,
  fingerprint,
  isSimilar,
  MAX_FINGERPRINT_FEATURES,
  MAX_ROLE_FEATURES,
  MAX_SHAPE_FEATURES,
  SIMILAR_THRESHOLD,
  similarity,
  textFingerprint,
  turnFingerprint,
  wordTokens,
} from '../../../src/domain/text/similarity';

const call = (name: string, input: unknown) => turnFingerprint([{ name, input }]);
const alike = (a: string, b: string) => similarity(textFingerprint(a), textFingerprint(b));

describe('wordTokens', () => {
  it('folds case, spacing, punctuation, repeats, full-width letters and stop words; keeps accents and first-seen order', () => {
    expect(wordTokens('The Weather in  PARIS, paris!')).toEqual(['weather', 'paris']);
    expect(wordTokens('ＰＡＲＩＳ ﬁle')).toEqual(['paris', 'file']);
    expect(wordTokens('schön schon')).toEqual(['schön', 'schon']);
    expect(wordTokens('the a of')).toEqual([]);
  });
});

describe('argumentFeatures', () => {
  it('names each word and value by its path; array order is ignored', () => {
    expect(argumentFeatures({ query: 'Weather in Paris', opts: { units: 'metric', days: 3 } })).toEqual([
      'query=weather',
      'query=paris',
      'opts.units=metric',
      'opts.days=3',
    ]);
    expect(new Set(argumentFeatures({ ids: [1, 2, 'x'] }))).toEqual(new Set(argumentFeatures({ ids: ['x', 2, 1] })));
    // A string with no words still counts, as its folded text.
    expect(argumentFeatures({ q: 'the', flag: true, none: null })).toEqual(['q=the', 'flag=true', 'none=null']);
  });
});

describe('similarity', () => {
  it('ignores word order: `weather paris` ≈ `paris weather`, and `weather in Paris` ≈ `Paris weather` as calls', () => {
    expect(alike('weather paris', 'paris weather')).toBe(1);
    expect(call('search', { query: 'weather in Paris' })).toEqual(call('search', { query: 'Paris weather' }));
    expect(isSimilar(call('search', { query: 'weather in Paris' }), call('search', { query: 'Paris weather' }))).toBe(
      true,
    );
  });

  it('a different number is a different call: calculator b:7 vs b:8 is not similar, nor Q3 vs Q4', () => {
    const seven = call('calculator', { operation: 'add', a: 1, b: 7 });
    const eight = call('calculator', { operation: 'add', a: 1, b: 8 });
    expect(similarity(seven, eight)).toBe(0);
    expect(
      alike(
        'summarise the Q3 sales report in detail for the board',
        'summarise the Q4 sales report in detail for the board',
      ),
    ).toBe(0);
    // Even a number inside a long query.
    expect(
      similarity(
        call('search', { query: 'population of france germany italy spain portugal in 2019' }),
        call('search', { query: 'population of france germany italy spain portugal in 2020' }),
      ),
    ).toBe(0);
  });

  it('short arguments with one different word are far apart; another tool shares only the call count', () => {
    expect(similarity(call('lookup', { key: 'alpha' }), call('lookup', { key: 'beta' }))).toBe(0.5);
    expect(similarity(call('search', { query: 'weather Paris' }), call('search', { query: 'weather Lyon' }))).toBe(0.6);
    expect(similarity(call('lookup', { key: 'x' }), call('search', { key: 'x' }))).toBe(0.2); // only the call count
    // The same words under another argument are another feature.
    expect(isSimilar(call('t', { from: 'paris', to: 'lyon' }), call('t', { from: 'lyon', to: 'paris' }))).toBe(false);
  });

  it('a different number of calls in a turn is different work', () => {
    const one = turnFingerprint([{ name: 'lookup', input: { key: 'a' } }]);
    const two = turnFingerprint([
      { name: 'lookup', input: { key: 'a' } },
      { name: 'lookup', input: { key: 'a' } },
    ]);
    expect(similarity(one, two)).toBe(0);
  });

  it('the limit it cannot see: one different word among ten is within the default threshold', () => {
    const paris = 'detailed hourly weather forecast paris tomorrow morning celsius wind humidity';
    const lyon = 'detailed hourly weather forecast lyon tomorrow morning celsius wind humidity';
    expect(alike(paris, lyon)).toBeCloseTo(9 / 11);
    expect(isSimilar(textFingerprint(paris), textFingerprint(lyon))).toBe(true);
    expect(isSimilar(textFingerprint(paris), textFingerprint(lyon), 1)).toBe(false);
  });

  it('thresholds at the edges: exactly the threshold is similar, just below is not; 1 asks for the same set', () => {
    expect(SIMILAR_THRESHOLD).toBe(0.8);
    // 4 shared of 5: 0.8 exactly.
    const a = textFingerprint('alpha beta gamma delta');
    const b = textFingerprint('alpha beta gamma delta epsilon');
    expect(similarity(a, b)).toBe(0.8);
    expect(isSimilar(a, b)).toBe(true);
    expect(isSimilar(a, b, 0.81)).toBe(false);
    expect(isSimilar(a, b, 1)).toBe(false);
    expect(isSimilar(a, a, 1)).toBe(true);
    // 3 shared of 4: 0.75, below the default.
    expect(isSimilar(textFingerprint('alpha beta gamma'), textFingerprint('alpha beta gamma delta'))).toBe(false);
    expect(similarity([], [])).toBe(1);
    expect(similarity([], textFingerprint('alpha'))).toBe(0);
  });

  it('says how alike, rounded down', () => {
    expect(alikeText(0.86)).toBe('86% alike');
    expect(alikeText(0.999)).toBe('99% alike');
    expect(alikeText(1)).toBe('100% alike');
    expect(alikeText(0.8)).toBe('80% alike');
    expect(alikeText(0.29)).toBe('29% alike');
  });
});

describe('similarity respects roles (text/roles.ts)', () => {
  it('a reversed conversion is not similar, as a goal or inside a query', () => {
    expect(alike('convert USD to EUR', 'convert EUR to USD')).toBe(0);
    expect(alike('convert 100 USD into EUR', 'convert 100 EUR into USD')).toBe(0);
    expect(alike('flights from London to Paris', 'flights from Paris to London')).toBe(0);
    expect(alike('USD → EUR rate', 'EUR → USD rate')).toBe(0);
    expect(alike("summarise Alice's report about Bob", "summarise Bob's report about Alice")).toBe(0);
    // Diluted in a long text, the swap still vetoes.
    const long = 'please give me the latest official daily exchange rate published today';
    expect(alike(`${long} to convert USD to EUR`, `${long} to convert EUR to USD`)).toBe(0);
    expect(
      similarity(
        call('search', { query: 'latest official daily exchange rate to convert USD to EUR' }),
        call('search', { query: 'latest official daily exchange rate to convert EUR to USD' }),
      ),
    ).toBe(0);
  });

  it('arguments swapped between roles are not a near-repeat, however many other arguments they share', () => {
    const shared = { provider: 'ecb', format: 'json', precision: 'high', note: 'daily rate for the report' };
    const there = call('convert', { ...shared, from: 'USD', to: 'EUR' });
    const back = call('convert', { ...shared, to: 'USD', from: 'EUR' });
    expect(similarity(there, back)).toBe(0);
    expect(isSimilar(there, call('convert', { from: 'USD', to: 'EUR', ...shared }))).toBe(true);
  });

  it('reordered words that keep their roles, and paraphrases that were alike, stay alike', () => {
    expect(alike('from USD to EUR', 'to EUR from USD')).toBe(1);
    expect(alike('convert USD to EUR', 'USD to EUR, convert')).toBe(1);
    expect(alike('convert USD into EUR', 'convert USD to EUR')).toBe(1);
    expect(alike('weather in Paris tomorrow', 'tomorrow Paris weather')).toBe(1);
    // A role in one text only is no conflict: the query with "to" is the one without it, reworded.
    expect(
      isSimilar(
        call('search', { query: 'usd eur exchange rate today' }),
        call('search', { query: 'usd to eur exchange rate today' }),
      ),
    ).toBe(true);
    // Never alike before, and not now: a different unit word is a different feature.
    expect(isSimilar(textFingerprint('convert 5 km to miles'), textFingerprint('convert 5 kilometres to miles'))).toBe(
      false,
    );
  });

  it('a fingerprint stored before roles were read (no role features) compares by its features, as it did', () => {
    const old = textFingerprint('convert USD EUR').filter((f) => !f.startsWith('@'));
    expect(similarity(old, textFingerprint('convert USD to EUR'))).toBe(1);
  });

  it('role features are bounded and short enough to store', () => {
    const text = Array.from({ length: 200 }, (_, i) => `w${i} to t${i}`).join(', ');
    const shape = textFingerprint(text);
    expect(shape.filter((f) => f.startsWith('@'))).toHaveLength(MAX_ROLE_FEATURES);
    expect(shape.length).toBeLessThanOrEqual(MAX_SHAPE_FEATURES);
    expect(shape.every((f) => f.length <= 16)).toBe(true);
  });
});

describe('fingerprint', () => {
  it('is bounded: at most MAX_FINGERPRINT_FEATURES short hashes, exact (numeric) features kept first', () => {
    const words = Array.from(
      { length: 500 },
      (_, i) => `word${String.fromCharCode(97 + (i % 26))}${'x'.repeat(i % 7)}`,
    );
    const many = fingerprint([...words, 'n=42']);
    expect(many).toHaveLength(MAX_FINGERPRINT_FEATURES);
    expect(many.every((f) => /^[#~][0-9a-f]{8}$/.test(f))).toBe(true);
    expect(many.filter((f) => f.startsWith('#'))).toEqual([fingerprint(['n=42'])[0]]);
    expect(many[0]?.startsWith('#')).toBe(true);
    expect(JSON.stringify(many).length).toBeLessThan(MAX_FINGERPRINT_FEATURES * 12 + 2);
    // At exactly the bound nothing is dropped; one past it, one is.
    const exact = Array.from(
      { length: MAX_FINGERPRINT_FEATURES },
      (_, i) => `f${String.fromCharCode(97 + (i % 26))}${i}`,
    );
    expect(fingerprint(exact)).toHaveLength(MAX_FINGERPRINT_FEATURES);
    expect(fingerprint([...exact, 'one more'])).toHaveLength(MAX_FINGERPRINT_FEATURES);
    expect(fingerprint(['b', 'a', 'a'])).toEqual(fingerprint(['a', 'b']));
  });
});
