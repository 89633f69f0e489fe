import { describe, expect, it } from 'vitest';
import { agreementOf, normaliseAnswer } from '../../../src/tools/builtin/llm/agreement';

describe('agreementOf (ask_model consensus, no judge model)', () => {
  it('compares answers trimmed, lower-case, with whitespace collapsed and trailing punctuation dropped', () => {
    expect(normaliseAnswer('  The  answer\nis Paris. ')).toBe('the answer is paris');
    expect(normaliseAnswer('Paris?!')).toBe('paris');
    // Nothing more: a different word is a different answer.
    expect(normaliseAnswer('4')).not.toBe(normaliseAnswer('four'));
  });

  it('unanimous: every model answered alike', () => {
    const a = agreementOf([
      { alias: 'a', text: 'Paris.' },
      { alias: 'b', text: 'paris' },
      { alias: 'c', text: ' PARIS ' },
    ]);
    expect(a).toEqual({ agreement: 1, unanimous: true, majority: 'Paris.', groups: [['a', 'b', 'c']] });
  });

  it('majority: more than half of the models asked agree; the answer as the first of them wrote it', () => {
    const a = agreementOf([
      { alias: 'a', text: 'Lyon' },
      { alias: 'b', text: 'Paris' },
      { alias: 'c', text: 'paris.' },
    ]);
    expect(a).toEqual({ agreement: 2 / 3, unanimous: false, majority: 'Paris', groups: [['b', 'c'], ['a']] });
  });

  it('split: no strict majority, so none is reported; ties keep the order asked', () => {
    expect(
      agreementOf([
        { alias: 'a', text: 'yes' },
        { alias: 'b', text: 'no' },
      ]),
    ).toEqual({ agreement: 0.5, unanimous: false, groups: [['a'], ['b']] });
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
    });
  });

  it('a failed model counts against agreement: it is asked but in no group, and never unanimous', () => {
    const oneFailed = agreementOf([{ alias: 'a', text: '4' }, { alias: 'b', text: '4' }, { alias: 'c' }]);
    expect(oneFailed).toEqual({ agreement: 2 / 3, unanimous: false, majority: '4', groups: [['a', 'b']] });
    // Two of three failed: the one answer is not a majority of the models asked.
    expect(agreementOf([{ alias: 'a', text: '4' }, { alias: 'b' }, { alias: 'c' }])).toEqual({
      agreement: 1 / 3,
      unanimous: false,
      groups: [['a']],
    });
    expect(agreementOf([{ alias: 'a' }, { alias: 'b' }])).toEqual({ agreement: 0, unanimous: false, groups: [] });
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
