import { describe, expect, it } from 'vitest';
import { roleText, rolesConflict, wordRoles } from '../../../src/domain/text/roles';

const roles = (text: string) => wordRoles(text).map(({ word, role }) => `${role}:${word}`);

describe('wordRoles', () => {
  it('reads from/to, arrows, "X to Y", than with its subject, about and possessives', () => {
    expect(roles('Convert USD to EUR')).toEqual(['from:usd', 'to:eur']);
    expect(roles('from London into the city of Paris')).toEqual(['from:london', 'to:city']);
    expect(roles('USD→EUR, GBP -> JPY')).toEqual(['from:usd', 'to:eur', 'from:gbp', 'to:jpy']);
    expect(roles('Yes, Paris is warmer than Tokyo')).toEqual(['subject:paris', 'than:tokyo']);
    expect(roles("Summarise Alice's report about Bob")).toEqual(['owner:alice', 'about:bob']);
  });

  it('punctuation ends a clause: no role across it; a word without a marker has none', () => {
    expect(roles('USD, to EUR')).toEqual(['to:eur']);
    expect(roles('weather in Paris tomorrow')).toEqual([]);
    expect(roles('')).toEqual([]);
  });

  it('roleText writes a role that reads back as itself', () => {
    for (const text of ['convert USD to EUR', 'Paris is warmer than Tokyo', "Alice's report about Bob"]) {
      const read = wordRoles(text);
      expect(read.flatMap((r) => wordRoles(roleText(r)))).toEqual(read);
    }
  });
});

describe('rolesConflict', () => {
  const pairs = (text: string) => wordRoles(text);
  it('a shared word with one role in each, not the same, conflicts; a role on one side only does not', () => {
    expect(rolesConflict(pairs('USD to EUR'), pairs('EUR to USD'))).toBe(true);
    expect(rolesConflict(pairs('USD to EUR'), pairs('to EUR from USD'))).toBe(false);
    expect(rolesConflict(pairs('USD to EUR'), pairs('USD EUR rate'))).toBe(false);
    // A word with two roles in one text is left alone.
    expect(rolesConflict(pairs('from USD to EUR to USD'), pairs('EUR to USD'))).toBe(false);
  });
});

describe('cost', () => {
  it('reads a long text in one pass (linear: 400,000 characters well under a second)', () => {
    const text = 'from usd to eur, than x about y; '.repeat(12_000);
    const started = performance.now();
    expect(wordRoles(text).length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
