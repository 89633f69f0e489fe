import { describe, expect, it } from 'vitest';
import { agreementOf } from '../../../src/tools/builtin/llm/agreement';
import { answerShape, MAX_COMPARED_CHARS, sameAnswer } from '../../../src/domain/text/answer-equivalence';

const same = (a: string, b: string): boolean => sameAnswer(answerShape(a), answerShape(b));

describe('agreementOf (ask_model consensus, no judge model)', () => {
  it('agrees on what answers say, not how they spell it', () => {
    // Before: exact text after trimming and case, so each of these pairs disagreed.
    expect(same('4', 'four')).toBe(true);
    expect(same('Yes.', 'yes, it is')).toBe(true);
    expect(same('True', 'yes')).toBe(true);
    expect(same('4 km', '4000 m')).toBe(true);
    expect(same('The answer is 42.', '42')).toBe(true);
    expect(same('about 3.11 mi', '3.107 mi')).toBe(true);
    expect(same('Paris, Lyon', 'Lyon and Paris')).toBe(true);
    expect(same('12 March 2024', '2024-03-12')).toBe(true);
    expect(same('  The  answer\nis Paris. ', 'paris')).toBe(true);
    expect(same('Zürich!', 'zurich')).toBe(true);
    expect(same('- Paris\n- Lyon', '1. Lyon\n2. Paris')).toBe(true);
    expect(same('The answer is Paris, Lyon', 'Lyon and Paris')).toBe(true);
  });

  it('keeps answers apart that differ in what they say', () => {
    expect(same('4', '5')).toBe(false);
    expect(same('3.2 mi', '3.107 mi')).toBe(false);
    expect(same('42 km', '42 mi')).toBe(false);
    expect(same('yes', 'no')).toBe(false);
    expect(same('No rain is expected', 'no')).toBe(false);
    expect(same('Paris, Lyon', 'Paris, Lyon, Nice')).toBe(false);
    expect(same('Paris', 'Lyon')).toBe(false);
    expect(same('$4', '4 EUR')).toBe(false);
    expect(same('2024-03-12', '2024-03-13')).toBe(false);
    // A figure inside prose is not the answer's value: compared as text.
    expect(same('It rained 4 days in a row in the second week of May', '4')).toBe(false);
  });

  it('keeps apart a value said of reversed roles: a rate from USD to EUR is not one from EUR to USD', () => {
    expect(same('USD to EUR: 0.92', 'EUR to USD: 0.92')).toBe(false);
    expect(same('from EUR into USD, 1.08', 'from USD into EUR, 1.08')).toBe(false);
    expect(same('Yes, Paris is warmer than Tokyo', 'Yes, Tokyo is warmer than Paris')).toBe(false);
    // The same roles, reworded or reordered, still agree.
    expect(same('USD to EUR: 0.92', 'USD → EUR 0.92')).toBe(true);
    expect(same('USD to EUR: 0.92', '0.92 from USD to EUR')).toBe(true);
    expect(
      agreementOf([
        { alias: 'a', text: 'USD to EUR: 0.92' },
        { alias: 'b', text: 'EUR to USD: 0.92' },
      ]),
    ).toMatchObject({
      agreement: 0.5,
      unanimous: false,
    });
  });

  it('past its bound, an answer is compared as folded text only', () => {
    const long = `${'x '.repeat(MAX_COMPARED_CHARS)}4`;
    expect(answerShape(long).kind).toBe('text');
    expect(same(long, long.toUpperCase())).toBe(true);
    expect(answerShape(`${'x '.repeat(MAX_COMPARED_CHARS / 4)}4`).kind).toBe('text');
  });

  it('says what each group was compared as', () => {
    const a = agreementOf([
      { alias: 'fast', text: '4 km' },
      { alias: 'smart', text: 'four kilometres' },
      { alias: 'tiny', text: 'Lyon and Paris' },
    ]);
    expect(a).toEqual({
      agreement: 2 / 3,
      unanimous: false,
      majority: '4 km',
      groups: [['fast', 'smart'], ['tiny']],
      groupedBy: ['number', 'set'],
    });
  });

  it('unanimous: every model answered alike', () => {
    const a = agreementOf([
      { alias: 'a', text: 'Paris.' },
      { alias: 'b', text: 'paris' },
      { alias: 'c', text: ' PARIS ' },
    ]);
    expect(a).toEqual({
      agreement: 1,
      unanimous: true,
      majority: 'Paris.',
      groups: [['a', 'b', 'c']],
      groupedBy: ['text'],
    });
  });

  it('majority: more than half of the models asked agree; the answer as the first of them wrote it', () => {
    const a = agreementOf([
      { alias: 'a', text: 'Lyon' },
      { alias: 'b', text: 'Paris' },
      { alias: 'c', text: 'paris.' },
    ]);
    expect(a).toEqual({
      agreement: 2 / 3,
      unanimous: false,
      majority: 'Paris',
      groups: [['b', 'c'], ['a']],
      groupedBy: ['text', 'text'],
    });
  });

  it('split: no strict majority, so none is reported; ties keep the order asked', () => {
    expect(
      agreementOf([
        { alias: 'a', text: 'yes' },
        { alias: 'b', text: 'no' },
      ]),
    ).toEqual({ agreement: 0.5, unanimous: false, groups: [['a'], ['b']], groupedBy: ['verdict', 'verdict'] });
    const four = agreementOf([
      { alias: 'a', text: 'x' },
      { alias: 'b', text: 'y' },
      { alias: 'c', text: 'y' },
      { alias: 'd', text: 'x' },
    ]);
    expect(four).toEqual({
      agreement: 0.5,
      unanimous: false,
      groups: [
        ['a', 'd'],
        ['b', 'c'],
      ],
      groupedBy: ['text', 'text'],
    });
  });

  it('a failed model counts against agreement: it is asked but in no group, and never unanimous', () => {
    const oneFailed = agreementOf([{ alias: 'a', text: '4' }, { alias: 'b', text: '4' }, { alias: 'c' }]);
    expect(oneFailed).toEqual({
      agreement: 2 / 3,
      unanimous: false,
      majority: '4',
      groups: [['a', 'b']],
      groupedBy: ['number'],
    });
    // Two of three failed: the one answer is not a majority of the models asked.
    expect(agreementOf([{ alias: 'a', text: '4' }, { alias: 'b' }, { alias: 'c' }])).toEqual({
      agreement: 1 / 3,
      unanimous: false,
      groups: [['a']],
      groupedBy: ['number'],
    });
    expect(agreementOf([{ alias: 'a' }, { alias: 'b' }])).toEqual({
      agreement: 0,
      unanimous: false,
      groups: [],
      groupedBy: [],
    });
  });

  it('reports the majority as shown (cut), while comparing the whole answers', () => {
    const a = agreementOf([
      { alias: 'a', text: 'long answer A', shown: 'long' },
      { alias: 'b', text: 'long answer B', shown: 'long' },
      { alias: 'c', text: 'long answer A', shown: 'long' },
    ]);
    expect(a).toMatchObject({ agreement: 2 / 3, majority: 'long', groups: [['a', 'c'], ['b']] });
  });
});
