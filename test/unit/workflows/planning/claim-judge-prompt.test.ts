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
  it('numbers the claims and names each observation by its step id, each result and the answer cut at their limits', () => {
    const prompt = claimJudgePrompt(
      'a'.repeat(MAX_JUDGED_ANSWER_CHARS + 10),
      [claim],
      [
        { stepId: 'step-4', tool: 'convert_units', result: { value: 5, converted: 3.107 } },
        { stepId: 'step-6', tool: 'big', result: 'z'.repeat(MAX_JUDGED_RESULT_CHARS * 2) },
      ],
    );
    expect(prompt).toContain('1. "26.1 mi" (number)');
    expect(prompt).toContain('- step "step-4", convert_units: {"value":5,"converted":3.107}');
    expect(prompt).toContain(`${'a'.repeat(MAX_JUDGED_ANSWER_CHARS)}…`);
    expect(prompt).not.toContain('a'.repeat(MAX_JUDGED_ANSWER_CHARS + 1));
    // The JSON string's opening quote, then the cut result.
    expect(prompt).toContain(`- step "step-6", big: "${'z'.repeat(MAX_JUDGED_RESULT_CHARS - 1)}…`);
    expect(prompt).not.toContain('z'.repeat(MAX_JUDGED_RESULT_CHARS));
  });

  it('reads the asked JSON, in prose or a fence, and refuses more entries than claims can be checked', () => {
    expect(readClaimJudgeReply('Sure:\n```json\n{"supported": [{"claim": 1, "step": "s4"}]}\n```')).toEqual({
      ok: true,
      value: { supported: [{ claim: 1, step: 's4', why: '' }] },
    });
    const most = { supported: Array.from({ length: MAX_CHECKED_CLAIMS }, (_, i) => ({ claim: i + 1, step: 's' })) };
    expect(readClaimJudgeReply(JSON.stringify(most)).ok).toBe(true);
    const over = { supported: [...most.supported, { claim: 41, step: 's' }] };
    expect(readClaimJudgeReply(JSON.stringify(over)).ok).toBe(false);
    expect(readClaimJudgeReply('{"supported": [{"claim": 0, "step": "s"}]}').ok).toBe(false);
    expect(readClaimJudgeReply('all supported')).toEqual({ ok: false, problem: 'the reply holds no JSON object' });
  });
});
