import { describe, expect, it } from 'vitest';
import { samplingFamily } from '../../src/activities/models/anthropic/anthropic-sampling';

describe('samplingFamily: which sampling settings a Claude model id takes', () => {
  it.each([
    ['claude-3-7-sonnet-20250219', 'all'],
    ['claude-3-5-haiku-latest', 'all'],
    ['claude-3-opus-latest', 'all'],
    ['claude-sonnet-4-20250514', 'all'],
    ['claude-opus-4-20250514', 'all'],
    ['claude-opus-4-1-20250805', 'temperature-or-top-p'],
    ['claude-sonnet-4-5', 'temperature-or-top-p'],
    ['claude-sonnet-4-6', 'temperature-or-top-p'],
    ['claude-haiku-4-5-20251001', 'temperature-or-top-p'],
    ['claude-opus-4-6', 'temperature-or-top-p'],
    ['claude-opus-4-7', 'none'],
    ['claude-opus-4-8', 'none'],
    ['claude-sonnet-5', 'none'],
    ['claude-haiku-5-5', 'none'],
    ['claude-fable-5', 'none'],
    ['claude-mythos-preview', 'none'],
    ['CLAUDE-SONNET-4-6', 'temperature-or-top-p'],
  ])('%s is %s', (model, family) => {
    expect(samplingFamily(model)).toBe(family);
  });

  it.each(['gpt-4o', 'claude', 'claude-sonnet', 'claude-3', 'sonnet-4-6', 'claude-sonnet-latest'])(
    '%s is not placed (refused, not guessed)',
    (model) => {
      expect(samplingFamily(model)).toBeUndefined();
    },
  );
});
