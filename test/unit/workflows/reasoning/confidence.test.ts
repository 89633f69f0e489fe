import { describe, expect, it } from 'vitest';
import { asConfidence, readConfidence } from '../../../../src/workflows/reasoning/confidence';

describe('readConfidence', () => {
  it('takes the confidence line out of the text', () => {
    expect(readConfidence('Alpha first.\nConfidence: 0.7')).toEqual({ text: 'Alpha first.', confidence: 0.7 });
    expect(readConfidence('**Confidence:** 80%\nAnswer text')).toEqual({ text: 'Answer text', confidence: 0.8 });
    expect(readConfidence('Sûr ?\nCertitude : 0.25', 'Certitude')).toEqual({ text: 'Sûr ?', confidence: 0.25 });
  });

  it('leaves text alone when no line can be read, and ignores numbers out of range', () => {
    expect(readConfidence('My confidence: high')).toEqual({ text: 'My confidence: high' });
    expect(readConfidence('The confidence: 0.9 was noted inline')).toEqual({
      text: 'The confidence: 0.9 was noted inline',
    });
    expect(readConfidence('x\nConfidence: 250')).toEqual({ text: 'x' });
  });
});

describe('asConfidence', () => {
  it('reads 0–1, percentages, and refuses the rest', () => {
    expect(asConfidence(0)).toBe(0);
    expect(asConfidence(1)).toBe(1);
    expect(asConfidence(0.8)).toBe(0.8);
    expect(asConfidence(80)).toBe(0.8);
    expect(asConfidence(0.5, true)).toBe(0.005);
    for (const bad of [-0.1, 101, Number.NaN, Infinity, '0.5', null, undefined])
      expect(asConfidence(bad)).toBeUndefined();
  });
});
