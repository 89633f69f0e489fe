import { describe, expect, it } from 'vitest';
import { offlineClaimJudgeReply } from '../../src/offline/offline-claim-judge';
import { claimJudgePrompt } from '../../src/workflows/planning/verdicts/claim-judge-prompt';
import { readClaimJudgeReply } from '../../src/workflows/planning/verdicts/verdict-reader';

describe('the offline model as claim judge', () => {
  it('supports a claim by the first result sharing a word of four letters or more, and leaves an invented one unsupported', () => {
    const prompt = claimJudgePrompt(
      'The capital of France is Paris, in the Paris Region; its largest port is Marseille.',
      [
        { text: 'Paris Region', kind: 'entity', value: 'paris region', at: 34 },
        { text: 'Marseille', kind: 'entity', value: 'marseille', at: 72 },
      ],
      [
        { stepId: 'step-a', tool: 'weather', result: { city: 'Lyon' } },
        { stepId: 'step-b', tool: 'country_facts', result: { country: 'France', capital: 'Paris' } },
      ],
    );
    const read = readClaimJudgeReply(offlineClaimJudgeReply(prompt));
    expect(read).toEqual({
      ok: true,
      value: { supported: [{ claim: 1, step: 'step-b', why: 'the result names "paris"' }] },
    });
  });
});
