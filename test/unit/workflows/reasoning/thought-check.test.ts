import { describe, expect, it } from 'vitest';
import { AgentInput } from '../../../../src/domain';
import { checkThought, isDegenerate, thoughtKey } from '../../../../src/workflows/reasoning/thought-check';

const input = (extra: Partial<Parameters<typeof AgentInput.parse>[0]> = {}) =>
  AgentInput.parse({ task: 't', ...extra });

describe('checkThought', () => {
  it('requires a thought by default, and names the label in text ReAct', () => {
    expect(checkThought(undefined, input(), ['lookup'], undefined)).toMatchObject({ ok: false });
    expect(checkThought('   ', input(), ['lookup'], undefined)).toMatchObject({ ok: false });
    const text = checkThought(
      '',
      input({ strategy: 'react-text', labels: { thought: 'Idea' } }),
      ['lookup'],
      undefined,
    );
    expect(text.ok === false && text.problem).toContain('"Idea:" line');
    expect(checkThought('', input({ requireThought: false }), ['lookup'], undefined)).toEqual({ ok: true });
  });

  it('judges nothing else unless thoughtValidation is set', () => {
    expect(checkThought('Go.', input(), ['lookup'], thoughtKey('Go.'))).toEqual({ ok: true });
  });

  it('refuses a thought below minChars, and accepts one at it', () => {
    const rules = input({ thoughtValidation: { minChars: 10, refuseDegenerate: false } });
    expect(checkThought('123456789', rules, [], undefined)).toMatchObject({ ok: false });
    expect(checkThought('1234567890', rules, [], undefined)).toEqual({ ok: true });
  });

  it('refuses a repeat of the previous thought, whatever its case and punctuation', () => {
    const rules = input({ thoughtValidation: { minChars: 0 } });
    const previous = thoughtKey('Alpha is needed for the sum.');
    expect(checkThought('alpha IS needed, for the sum!', rules, ['lookup'], previous)).toMatchObject({ ok: false });
    expect(checkThought('Beta is needed for the sum.', rules, ['lookup'], previous)).toEqual({ ok: true });
  });
});

describe('isDegenerate', () => {
  it('catches thoughts that only announce a tool', () => {
    for (const thought of [
      'I will use the tool.',
      'Let me call search_files now',
      'Calling the lookup tool',
      'OK, next step.',
    ])
      expect(isDegenerate(thought, ['search_files', 'lookup'])).toBe(true);
  });

  it('lets reasoning through, in any script', () => {
    for (const thought of [
      'Paris weather is unknown; get_weather gives it.',
      'Il me faut la température de Paris.',
      '需要查询天气',
    ])
      expect(isDegenerate(thought, ['get_weather'])).toBe(false);
  });
});
