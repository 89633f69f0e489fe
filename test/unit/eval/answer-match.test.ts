import { describe, expect, it } from 'vitest';
import { AnswerExpectation, MAX_SCORE_WHY_CHARS } from '../../../src/domain/evaluation';
import { answerMatch, firstNumber } from '../../../src/domain/evaluation/scorers/answer-match';
import { facts } from './scoring-facts-fixture';

const match = (expected: unknown, answer: string, over = {}) =>
  answerMatch(AnswerExpectation.parse(expected), facts({ finalAnswer: answer, ...over }));

describe('answer_match', () => {
  it('exact: the whole answer, surrounding whitespace trimmed, case by option', () => {
    expect(match({ match: 'exact', value: 'Paris' }, '  Paris\n')).toMatchObject({ passed: true, value: 1 });
    const wrong = match({ match: 'exact', value: 'Paris' }, 'paris');
    expect(wrong).toMatchObject({ passed: false, value: 0 });
    expect(wrong.why).toBe('answer "paris" is not exactly "Paris"');
    expect(match({ match: 'exact', value: 'Paris', ignoreCase: true }, 'PARIS').passed).toBe(true);
    expect(match({ match: 'exact', value: 'Paris' }, 'Paris, France').passed).toBe(false);
  });

  it('contains: every value, case-insensitive by default, the share found as the value', () => {
    expect(match({ match: 'contains', value: 'berlin' }, 'It is Berlin.').passed).toBe(true);
    const half = match({ match: 'contains', value: ['Berlin', 'Rome'] }, 'Berlin only');
    expect(half).toMatchObject({ passed: false, value: 0.5 });
    expect(half.why).toBe('missing "Rome" (1 of 2 found)');
    expect(match({ match: 'contains', value: 'berlin', ignoreCase: false }, 'Berlin').passed).toBe(false);
  });

  it('regex: searched anywhere with RE2, case by option', () => {
    expect(match({ match: 'regex', pattern: '\\b42\\b' }, 'The answer is 42.').passed).toBe(true);
    expect(match({ match: 'regex', pattern: '^the' }, 'The end').passed).toBe(false);
    expect(match({ match: 'regex', pattern: '^the', ignoreCase: true }, 'The end').passed).toBe(true);
  });

  it('regex: a pattern RE2 cannot compile is a failed score that says so', () => {
    const lookahead = match({ match: 'regex', pattern: 'a(?=b)' }, 'ab');
    expect(lookahead).toMatchObject({ passed: false, value: 0 });
    expect(lookahead.why).toMatch(/^pattern "a\(\?=b\)" refused by RE2: /);
    expect(match({ match: 'regex', pattern: '(a)\\1' }, 'aa').why).toMatch(/refused by RE2/);
  });

  it('regex: a catastrophic pattern on a huge answer stays linear', () => {
    const answer = `${'a'.repeat(32_000)}!`;
    const started = performance.now();
    expect(match({ match: 'regex', pattern: '^(a+)+$' }, answer).passed).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('json_subset: objects by subset, arrays and scalars equal; the output first, else the answer as JSON', () => {
    const answer = JSON.stringify({ city: 'Paris', temp: { c: 21, f: 70 }, tags: ['a', 'b'] });
    expect(match({ match: 'json_subset', value: { temp: { c: 21 } } }, answer).passed).toBe(true);
    expect(match({ match: 'json_subset', value: { tags: ['a'] } }, answer).why).toBe(
      'at $.tags: expected ["a"], got ["a","b"]',
    );
    expect(match({ match: 'json_subset', value: { temp: { k: 294 } } }, answer).why).toBe(
      'at $.temp.k: expected 294, got nothing',
    );
    // The structured output wins over the answer text.
    expect(
      match({ match: 'json_subset', value: { ok: true } }, 'not json', { output: { ok: true, n: 1 } }).passed,
    ).toBe(true);
    expect(match({ match: 'json_subset', value: { ok: true } }, '```json\n{"ok": true}\n```').passed).toBe(true);
    const prose = match({ match: 'json_subset', value: { ok: true } }, 'Sure! {"ok": true}');
    expect(prose.passed).toBe(false);
    expect(prose.why).toMatch(/^the answer is not JSON: /);
    expect(match({ match: 'json_subset', value: 3 }, '3').passed).toBe(true);
  });

  it('numeric: the first number in the answer, within an absolute or relative tolerance', () => {
    expect(match({ match: 'numeric', value: 42 }, 'It is 42 apples, not 7.').passed).toBe(true);
    expect(match({ match: 'numeric', value: 42 }, 'Between 7 and 42').why).toBe('first number 7 is not 42');
    expect(match({ match: 'numeric', value: 3.14, tolerance: 0.01 }, 'pi ~ 3.1416').passed).toBe(true);
    expect(match({ match: 'numeric', value: 1000, tolerance: 0.05, relative: true }, 'about 1,040 km').passed).toBe(
      true,
    );
    expect(match({ match: 'numeric', value: 1000, tolerance: 0.01, relative: true }, 'about 1,040 km').passed).toBe(
      false,
    );
    expect(match({ match: 'numeric', value: -5 }, 'It fell to -5 degrees').passed).toBe(true);
    const none = match({ match: 'numeric', value: 1 }, 'no digits here', { answerCut: true });
    expect(none).toMatchObject({ passed: false });
    expect(none.why).toBe('no number in the answer; expected 1 (the answer was cut for scoring)');
  });

  it('reads numbers as written', () => {
    expect(firstNumber('x 1,234,567.5 y')).toBe(1234567.5);
    expect(firstNumber('2e3 m')).toBe(2000);
    expect(firstNumber('1,2')).toBe(1);
    expect(firstNumber('none')).toBeUndefined();
  });

  it('keeps every why within the limit, however long the values', () => {
    const long = 'x'.repeat(5_000);
    for (const expected of [
      { match: 'exact', value: long },
      { match: 'contains', value: [long, `${long}y`] },
      { match: 'regex', pattern: `(${'a'.repeat(900)}` },
      { match: 'json_subset', value: { [long]: long } },
    ])
      expect(match(expected, long).why.length).toBeLessThanOrEqual(MAX_SCORE_WHY_CHARS);
  });
});
