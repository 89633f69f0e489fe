import { describe, expect, it } from 'vitest';
import { checkClaims, type ClaimEvidence } from '../../../src/domain/chain/claim-support';

const converted: ClaimEvidence = { stepId: 's3', value: { value: 5, from: 'km', to: 'mi', converted: 3.107 } };
const unsupported = (answer: string, evidence: ClaimEvidence[]) => checkClaims(answer, evidence).unsupported;

describe('checkClaims: numbers', () => {
  it.each([
    ['5 km is 3.107 mi.', []],
    ['5 km is about 3.11 miles.', []],
    ['5 km is about 3.1 mi.', []],
    ['5 km is 3.2 mi.', ['3.2 mi']],
    ['5 km is 3.107 mi, so the 42 km route is 26.1 mi.', ['42 km', '26.1 mi']],
    ['5 km is 3.107 lb.', ['3.107 lb']],
  ])('%s', (answer, expected) => {
    expect(unsupported(answer, [converted])).toEqual(expected);
  });

  it('a unit mismatch is unsupported; the same quantity in another unit is supported', () => {
    const seen: ClaimEvidence = { stepId: 's1', value: 'The route is 42 mi long.' };
    expect(unsupported('It is 42 km.', [seen])).toEqual(['42 km']);
    expect(unsupported('It is 67.6 km.', [seen])).toEqual([]);
    expect(unsupported('It is 42 miles.', [seen])).toEqual([]);
  });

  it('a bare observed number stands for a unit the observation never contradicts, and sibling units count', () => {
    expect(unsupported('Paris is 21 °C.', [{ stepId: 's1', value: { city: 'Paris', temperature: 21 } }])).toEqual([]);
    expect(unsupported('Paris is 21 °C.', [{ stepId: 's1', value: { temperature: 21, unit: 'F' } }])).toEqual([
      '21 °C (Paris)',
    ]);
    expect(unsupported('It costs $1,200.', [{ stepId: 's1', value: { price: 1200, currency: 'USD' } }])).toEqual([]);
    expect(unsupported('It costs €1,200.', [{ stepId: 's1', value: { price: 1200, currency: 'USD' } }])).toEqual([
      '€1,200',
    ]);
  });

  it('a scaled figure matches the bare one a table records', () => {
    const facts: ClaimEvidence = {
      stepId: 's1',
      value: { country: 'France', capital: 'Paris', population_millions: 68 },
    };
    expect(unsupported('France has about 68 million people.', [facts])).toEqual([]);
    expect(unsupported('France has about 70 million people.', [facts])).toEqual(['70 million (France)']);
  });
});

describe('checkClaims: what supports a claim', () => {
  it('the oldest observation wins, else what the task gave, else nothing', () => {
    const check = checkClaims('6 times 7 is 42, not 48.', [
      { stepId: 's2', value: { result: 42 } },
      { stepId: 's4', value: { result: 42 } },
      { given: 'task', value: 'Multiply 6 by 7.' },
    ]);
    expect(check.claims.map((c) => [c.text, c.supportedBy ?? c.given ?? null])).toEqual([
      ['6', 'task'],
      ['7', 'task'],
      ['42', 's2'],
      ['48', null],
    ]);
    // "not 48" denies a figure no observation states: the rules cannot settle it.
    expect(check.unsupported).toEqual([]);
    expect(check.unchecked).toEqual(['48']);
  });

  it('entities and quotes match whole words of the folded observation', () => {
    const facts: ClaimEvidence = { stepId: 's1', value: { country: 'France', capital: 'Paris' } };
    expect(unsupported('Paris, of course; its largest port is Marseille.', [facts])).toEqual(['Marseille']);
    expect(unsupported('The capital of France is "PARIS".', [facts])).toEqual([]);
    expect(unsupported('It is in Par.', [facts])).toEqual(['Par']);
    expect(unsupported('The capital of Fran is Paris.', [facts])).toEqual(['Fran']);
  });

  it('dates: an observed day supports its month, not the other way', () => {
    const seen: ClaimEvidence = { stepId: 's1', value: { updated: '2024-03-12T10:00:00Z' } };
    expect(unsupported('Updated in March 2024.', [seen])).toEqual([]);
    expect(unsupported('Updated on 13 March 2024.', [seen])).toEqual(['13 March 2024']);
  });

  it('a verdict: an observed boolean, else the answer’s other claims all standing', () => {
    expect(unsupported('Yes, it is in stock.', [{ stepId: 's1', value: { in_stock: true } }])).toEqual([]);
    expect(unsupported('No, it is not.', [{ stepId: 's1', value: { in_stock: true } }])).toEqual(['No']);
    const check = checkClaims('Yes: 3 are left.', [{ stepId: 's1', value: { quantity: 3 } }]);
    expect(check.claims.map((c) => c.supportedBy)).toEqual(['s1', 's1']);
    expect(unsupported('Yes: 4 are left.', [{ stepId: 's1', value: { quantity: 3 } }])).toEqual(['Yes', '4']);
  });

  it('what a sub-agent stated without support grounds nothing, the rest of its answer does', () => {
    const child: ClaimEvidence = { stepId: 's1', value: 'Paris is 21 °C and Lyon 35 °C.', unsupported: ['35 °C'] };
    expect(unsupported('Paris is 21 °C and Lyon 35 °C.', [child])).toEqual(['35 °C (Lyon)']);
  });

  it('context and a person count as given', () => {
    const check = checkClaims('The ticket ABC is for Lyon.', [
      { given: 'context', value: { ticket: 'ABC' } },
      { given: 'person', value: 'Use Lyon, not Paris.' },
    ]);
    expect(check.claims.map((c) => [c.text, c.given])).toEqual([
      ['ABC', 'context'],
      ['Lyon', 'person'],
    ]);
  });

  it('a sentence with nothing checkable in it is named as unchecked, unless it only restates the sources', () => {
    expect(checkClaims('it worked as expected.', [converted])).toMatchObject({
      claims: [{ kind: 'statement', text: 'it worked as expected.', unchecked: true }],
      unsupported: [],
      unchecked: ['it worked as expected.'],
    });
    expect(checkClaims('It was converted.', [converted])).toEqual({ method: 'rules', claims: [], unsupported: [] });
    expect(checkClaims('Is that all?', [converted]).claims).toEqual([]);
  });
});
