import { describe, expect, it } from 'vitest';
import { extractClaims } from '../../../src/domain/chain/answer-claims';
import { MAX_CHECKED_CLAIMS } from '../../../src/domain';

const claims = (answer: string) => extractClaims(answer).claims.map((c) => [c.kind, c.text, c.value]);

describe('extractClaims', () => {
  it.each([
    [
      '5 km is 3.107 mi.',
      [
        ['number', '5 km', '5000 m'],
        ['number', '3.107 mi', '5000.231808 m'],
      ],
    ],
    [
      'It costs $1,200, up 20%.',
      [
        ['number', '$1,200', '1200 USD'],
        ['number', '20%', '20 %'],
      ],
    ],
    [
      'Opened on 12 March 2024 in Lyon.',
      [
        ['date', '12 March 2024', '2024-03-12'],
        ['entity', 'Lyon', 'lyon'],
      ],
    ],
    ['He said "bonjour tout le monde" twice.', [['quote', '"bonjour tout le monde"', 'bonjour tout le monde']]],
    [
      'Yes, the capital of France is Paris.',
      [
        ['verdict', 'Yes', 'yes'],
        ['entity', 'France', 'france'],
        ['entity', 'Paris', 'paris'],
      ],
    ],
    [
      'The Eiffel Tower is in New York?',
      [
        ['entity', 'Eiffel Tower', 'eiffel tower'],
        ['entity', 'New York', 'new york'],
      ],
    ],
    ['About four apples, five kilograms of them.', [['number', 'five kilograms', '5000 g']]],
    // A possessive is the name itself: the task's "Japan" supports "Japan's".
    [
      "Lima is Peru's capital and Japan’s is Tokyo.",
      [
        ['entity', 'Peru', 'peru'],
        ['entity', 'Japan', 'japan'],
        ['entity', 'Tokyo', 'tokyo'],
      ],
    ],
  ])('%s', (answer, expected) => {
    expect(claims(answer)).toEqual(expected);
  });

  it('leaves out sentence openers, list markers, headings, clock times and names of the grammar', () => {
    const answer = [
      '# Weather Report For Paris',
      'Converting the figures: According to the tool, it is 21 °C at 10:30.',
      '1. Paris is sunny.',
      '2) Rain in Lyon.',
    ].join('\n');
    expect(claims(answer)).toEqual([
      ['number', '21 °C', '294.15 K'],
      ['entity', 'Lyon', 'lyon'],
    ]);
  });

  it('reads no number inside a date or a quote, and an apostrophe opens no quote', () => {
    expect(claims("It's 'the 2024 plan', filed 2024-03-12.")).toEqual([
      ['quote', "'the 2024 plan'", 'the 2024 plan'],
      ['date', '2024-03-12', '2024-03-12'],
    ]);
  });

  it('records each claim once, at its first place', () => {
    // "Paris" opening the answer is read as grammar; "42000 m" is "42 km" again.
    const found = extractClaims('Paris: 42 km. Then Paris again, 42 km, 42000 m.').claims;
    expect(found.map((c) => [c.text, c.at])).toEqual([
      ['42 km', 7],
      ['Paris', 19],
    ]);
  });

  it(`keeps at most ${MAX_CHECKED_CLAIMS} claims and counts the rest`, () => {
    const many = Array.from({ length: MAX_CHECKED_CLAIMS + 5 }, (_, i) => `${i + 100} km`).join(', ');
    const at = extractClaims(many);
    expect(at.claims).toHaveLength(MAX_CHECKED_CLAIMS);
    expect(at.omitted).toBe(5);
    const exactly = Array.from({ length: MAX_CHECKED_CLAIMS }, (_, i) => `${i + 100} km`).join(', ');
    expect(extractClaims(exactly)).toMatchObject({ omitted: 0 });
    expect(extractClaims(exactly).claims).toHaveLength(MAX_CHECKED_CLAIMS);
  });

  it('cuts a long quote to the recorded limit', () => {
    const [quote] = extractClaims(`"${'a'.repeat(300)}"`).claims;
    expect(quote!.text.length).toBe(120);
    expect(quote!.value.length).toBe(120);
  });
});
