import { describe, expect, it } from 'vitest';
import { checkClaims } from '../../src/domain/chain/claim-support';
import { offlineClaimJudgeReply } from '../../src/offline/offline-claim-judge';
import { claimJudgePrompt } from '../../src/workflows/planning/verdicts/claim-judge-prompt';
import { readClaimJudgeReply } from '../../src/workflows/planning/verdicts/verdict-reader';

const paris = { location: 'Paris', temperature: 12, units: 'celsius', conditions: 'light rain' };
const tokyo = { location: 'Tokyo', temperature: 21, units: 'celsius', conditions: 'clear' };

/** The offline judge's verdicts on an answer, the claims and observations as the real judge would see them. */
function judged(answer: string, results: Array<{ stepId: string; tool: string; result: unknown }>) {
  const check = checkClaims(
    answer,
    results.map((r) => ({ stepId: r.stepId, value: r.result })),
  );
  const read = readClaimJudgeReply(offlineClaimJudgeReply(claimJudgePrompt(answer, check.claims, results)));
  if (!read.ok) throw new Error(read.problem);
  return { check, verdicts: read.value.verdicts };
}

describe('the offline model as claim judge', () => {
  it('supports an open claim only by one field holding every word of it, never words spread over fields', () => {
    const prompt = claimJudgePrompt(
      'The capital of France is Paris, in the Paris Region; its capital city is Paris.',
      [
        { text: 'Paris Region', kind: 'entity', value: 'paris region', at: 34 },
        { text: 'capital city', kind: 'statement', value: 'capital city', at: 54, unchecked: true },
      ],
      [
        { stepId: 'step-a', tool: 'weather', result: { city: 'Lyon' } },
        // "region" and "paris" are in two fields: no support for "Paris Region".
        {
          stepId: 'step-b',
          tool: 'country_facts',
          result: { country: 'France', capital_city: 'Paris', region: 'IDF' },
        },
      ],
    );
    expect(readClaimJudgeReply(offlineClaimJudgeReply(prompt))).toEqual({
      ok: true,
      value: {
        verdicts: [{ claim: 2, verdict: 'supported', step: 'step-b', why: 'the result holds "capital", "city"' }],
      },
    });
  });

  it('leaves the two wrong weather answers as the rules found them: no verdict overturns a contradiction', () => {
    const contradicted = judged('It is 12°C and sunny in Paris right now, a dry day.', [
      { stepId: 'p', tool: 'get_weather', result: paris },
    ]);
    expect(contradicted.check.contradicted).toEqual(['sunny (Paris)', 'dry (Paris)']);
    expect(contradicted.verdicts).toEqual([]);
    const swapped = judged('Tokyo is 12°C and Paris is 21°C, so Paris is the warmer city.', [
      { stepId: 'p', tool: 'get_weather', result: paris },
      { stepId: 't', tool: 'get_weather', result: tokyo },
    ]);
    expect(swapped.check.contradicted).toEqual(['Paris is the warmer city']);
    // "12°C" said of Tokyo: no word of four letters to hold, so no verdict.
    expect(swapped.verdicts).toEqual([]);
  });
});
