import { describe, expect, it } from 'vitest';
import type { AnswerClaim } from '../../../../src/domain';
import { applyClaimVerdicts } from '../../../../src/workflows/planning/verdicts/claim-verdicts';

const answer = 'It is 12°C and sunny in Paris, a dry day. The deployment succeeded.';
const listed: AnswerClaim[] = [
  { kind: 'number', text: '12°C', value: '285.15 K', at: 6, about: 'Paris', supportedBy: 's1' },
  { kind: 'condition', text: 'sunny', value: 'sun', at: 15, about: 'Paris', contradictedBy: 's1' },
  { kind: 'statement', text: 'The deployment succeeded.', value: 'the deployment succeeded', at: 42, unchecked: true },
];
const apply = (verdicts: Parameters<typeof applyClaimVerdicts>[2]) =>
  applyClaimVerdicts(answer, listed, verdicts, new Set(['s1', 's2']), 'judge-model', (id) => id.slice(1));

describe('the claim judge’s verdicts applied to the rules’ claims', () => {
  it('demotes and promotes, and says so when it overrules a contradiction the rules saw', () => {
    const { claims, notes } = apply([
      { claim: 1, verdict: 'unsupported', why: 'not that day' },
      { claim: 2, verdict: 'supported', step: 's2', why: 'sunny later' },
    ]);
    expect(claims[0]).toEqual({
      kind: 'number',
      text: '12°C',
      value: '285.15 K',
      at: 6,
      about: 'Paris',
      judgedBy: 'judge-model',
    });
    expect(claims[1]).toMatchObject({ supportedBy: 's2', judgedBy: 'judge-model' });
    expect(claims[1]?.contradictedBy).toBeUndefined();
    expect(notes[1]).toBe(`"sunny" rests on step 2 (sunny later), overruling the rules' contradiction by step 1`);
  });

  it('a quoted statement settles the unchecked sentence it is part of, once; fragments, repeats and quotes the answer lacks are refused', () => {
    const { claims, notes } = apply([
      { text: 'deployment succeeded', verdict: 'contradicted', step: 's2', why: 'it failed' },
      { text: 'deployment succeeded', verdict: 'supported', step: 's2', why: '' },
      { text: 'dry', verdict: 'contradicted', step: 's1', why: '' },
      { text: 'it snowed all day', verdict: 'contradicted', step: 's1', why: '' },
      { text: 'a dry day', verdict: 'contradicted', step: 'not-an-observation', why: '' },
    ]);
    expect(claims.filter((c) => c.kind === 'statement')).toEqual([
      {
        kind: 'statement',
        text: 'deployment succeeded',
        value: 'deployment succeeded',
        at: 46,
        contradictedBy: 's2',
        judgedBy: 'judge-model',
      },
    ]);
    expect(notes.slice(1)).toEqual([
      '"deployment succeeded" refused: not a statement of its own',
      '"dry" refused: not a statement of its own',
      '"it snowed all day" refused: the answer does not say it',
      '"a dry day" keeps its verdict: "not-an-observation" is not an observation of this run',
    ]);
  });

  it('never records more than 40 claims', () => {
    const many: AnswerClaim[] = Array.from({ length: 40 }, (_, i) => ({
      kind: 'number',
      text: String(i + 2),
      value: String(i + 2),
      at: i,
    }));
    const { claims, notes } = applyClaimVerdicts(
      'a dry day it was',
      many,
      [{ text: 'a dry day', verdict: 'unsupported', why: '' }],
      new Set(['s1']),
      'judge-model',
      (id) => id,
    );
    expect(claims).toHaveLength(40);
    expect(notes).toEqual(['"a dry day" not recorded: the answer already has 40 claims']);
  });
});
