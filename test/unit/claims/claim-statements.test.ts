import { describe, expect, it } from 'vitest';
import { KnownFacts, uncheckedStatements } from '../../../src/domain/chain/claim-statements';
import { readClauses } from '../../../src/domain/chain/claim-subjects';

const known = (facts: Array<[string, string]>) => (): KnownFacts => {
  const k = new KnownFacts();
  for (const [path, said] of facts) k.add(path, said);
  return k;
};

describe('uncheckedStatements', () => {
  it('builds no fact index when every sentence holds a claim', () => {
    const text = 'Paris is 12 degrees. Tokyo is 18 degrees.';
    const claimed = [text.indexOf('12'), text.indexOf('18')];
    const never = (): KnownFacts => {
      throw new Error('the fact index was built');
    };
    expect(uncheckedStatements(text, readClauses(text), claimed, never, 200)).toEqual([]);
  });

  it('builds it once for the sentences without a claim, and names those it does not restate', () => {
    const text = 'Paris is 12 degrees. The sky over Paris is cloudy. Bananas are purple.';
    let built = 0;
    const facts = known([['sky', 'cloudy over Paris']]);
    const found = uncheckedStatements(text, readClauses(text), [text.indexOf('12')], () => (built++, facts()), 200);
    expect(built).toBe(1);
    expect(found.map((s) => s.text)).toEqual(['Bananas are purple.']);
  });
});
