import { describe, expect, it } from 'vitest';
import { MAX_CHECKED_CLAIMS, type AnswerClaim } from '../../../../src/domain';
import {
  claimJudgePrompt,
  MAX_JUDGED_ANSWER_CHARS,
  MAX_JUDGED_RESULT_CHARS,
} from '../../../../src/workflows/planning/verdicts/claim-judge-prompt';
import { readClaimJudgeReply } from '../../../../src/workflows/planning/verdicts/verdict-reader';

const claim: AnswerClaim = { kind: 'number', text: '26.1 mi', value: '26.1 mi', at: 30 };

describe('the claim judge prompt and reply (grounding.judge)', () => {
  it('lists every claim with the rules’ verdict and names each observation by its step id, each result and the answer cut at their limits', () => {
    const prompt = claimJudgePrompt(
      'a'.repeat(MAX_JUDGED_ANSWER_CHARS + 10),
      [
        claim,
        { kind: 'number', text: '3.107 mi', value: '3.107 mi', at: 10, supportedBy: 'step-4' },
        { kind: 'condition', text: 'sunny', value: 'sun', at: 5, about: 'Paris', contradictedBy: 'step-6' },
        { kind: 'statement', text: 'It is lovely.', value: 'it is lovely', at: 0, unchecked: true },
      ],
      [
        { stepId: 'step-4', tool: 'convert_units', result: { value: 5, converted: 3.107 } },
        { stepId: 'step-6', tool: 'big', result: 'z'.repeat(MAX_JUDGED_RESULT_CHARS * 2) },
      ],
    );
    expect(prompt).toContain('1. "26.1 mi" (number): unsupported');
    expect(prompt).toContain('2. "3.107 mi" (number): supported by step "step-4"');
    expect(prompt).toContain('3. "sunny" (condition, of Paris): contradicted by step "step-6"');
    expect(prompt).toContain('4. "It is lovely." (statement): not checked');
    expect(prompt).toContain('- step "step-4", convert_units: {"value":5,"converted":3.107}');
    expect(prompt).toContain(`${'a'.repeat(MAX_JUDGED_ANSWER_CHARS)}…`);
    expect(prompt).not.toContain('a'.repeat(MAX_JUDGED_ANSWER_CHARS + 1));
    // The JSON string's opening quote, then the cut result.
    expect(prompt).toContain(`- step "step-6", big: "${'z'.repeat(MAX_JUDGED_RESULT_CHARS - 1)}…`);
    expect(prompt).not.toContain('z'.repeat(MAX_JUDGED_RESULT_CHARS));
    expect(claimJudgePrompt('ok', [], [])).toContain('found, with what it decided:\n(none)');
  });

  it('reads the asked JSON, in prose or a fence, and refuses what it cannot read', () => {
    expect(
      readClaimJudgeReply('Sure:\n```json\n{"verdicts": [{"claim": 1, "verdict": "supported", "step": "s4"}]}\n```'),
    ).toEqual({ ok: true, value: { verdicts: [{ claim: 1, verdict: 'supported', step: 's4', why: '' }] } });
    expect(readClaimJudgeReply('{"verdicts": [{"text": "a dry day", "verdict": "unsupported"}]}').ok).toBe(true);
    const most = {
      verdicts: Array.from({ length: MAX_CHECKED_CLAIMS }, (_, i) => ({ claim: i + 1, verdict: 'unsupported' })),
    };
    expect(readClaimJudgeReply(JSON.stringify(most)).ok).toBe(true);
    const over = { verdicts: [...most.verdicts, { claim: 41, verdict: 'unsupported' }] };
    expect(readClaimJudgeReply(JSON.stringify(over)).ok).toBe(false);
    for (const bad of [
      '{"verdicts": [{"claim": 0, "verdict": "supported", "step": "s"}]}',
      // a supported or contradicted verdict names its step
      '{"verdicts": [{"claim": 1, "verdict": "contradicted"}]}',
      // a number and a quote at once, or neither
      '{"verdicts": [{"claim": 1, "text": "a dry day", "verdict": "unsupported"}]}',
      '{"verdicts": [{"verdict": "unsupported"}]}',
      '{"verdicts": [{"claim": 1, "verdict": "maybe", "step": "s"}]}',
      // the old shape
      '{"supported": [{"claim": 1, "step": "s4"}]}',
    ])
      expect(readClaimJudgeReply(bad).ok, bad).toBe(false);
    expect(readClaimJudgeReply('all supported')).toEqual({ ok: false, problem: 'the reply holds no JSON object' });
  });
});
