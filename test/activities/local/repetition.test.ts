import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FailureType } from '../../../src/domain';
import { repeatingReply } from '../../../src/activities/models/local/local-classify-error';
import { findRepetition, MIN_REPEATED_SPAN } from '../../../src/activities/models/local/repetition';

const FIXTURES = path.resolve(__dirname, '../../fixtures/local-model');
/** Issue 62's `run --model local "What is the weather in Paris?"`: two replies cut at max_tokens, each looping. */
const looping = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'looping-replies.json'), 'utf8')) as {
  replies: Array<{ maxTokens: number; text: string }>;
};
/** What SmolLM2 wrote for the conformance tasks (record-local-model.recorder.ts). */
const recorded = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'replies.json'), 'utf8')) as {
  textReact: Array<{ task: string; text: string; stopReason: string }>;
  constrained: Array<{ task: string; content: Array<{ type: string; text?: string }>; stopReason: string }>;
};

/** Feeds `text` as a model streams it, a few characters a chunk; where a check first finds a loop. */
function stopsAt(text: string, chunk = 4): number | undefined {
  for (let end = chunk; end < text.length + chunk; end += chunk)
    if (findRepetition(text.slice(0, end))) return Math.min(end, text.length);
  return undefined;
}

describe('findRepetition: a reply that loops, told from one that does not', () => {
  it('finds the loop of each recorded looping reply, the unit being the repeated sentence', () => {
    expect(looping.replies.length).toBe(2);
    for (const { text } of looping.replies) {
      const found = findRepetition(text);
      expect(found).toBeDefined();
      expect(found!.copies).toBeGreaterThanOrEqual(3);
      expect(text.slice(found!.start)).toContain(found!.unit.repeat(2));
      // The unit starts wherever the loop was found: it holds the sentence up to a rotation.
      expect(found!.unit.repeat(2)).toMatch(/It is also a (major US )?city/);
    }
  });

  it('stops a streamed loop early: within 600 characters, where the calls wrote 1,752 and 4,608', () => {
    for (const { text } of looping.replies) {
      const at = stopsAt(text);
      expect(at).toBeDefined();
      expect(at!).toBeLessThan(600);
      expect(at!).toBeGreaterThanOrEqual(MIN_REPEATED_SPAN);
    }
  });

  it('finds a loop of a short unit as a multiple of it, once it covers the span; a short run of it passes', () => {
    const loop = `{"thought": "Paris, France, ${'2022, '.repeat(40)}`;
    const at = stopsAt(loop)!;
    expect(at).toBeLessThan(loop.length);
    expect(findRepetition(loop.slice(0, at))!.unit.repeat(2)).toMatch(/(2022, ){3}/);
    expect(findRepetition('0, '.repeat(20))).toBeUndefined();
  });

  it('passes every recorded reply that ended on its own, and prose that repeats words but not itself', () => {
    const ended = [
      ...recorded.textReact.filter((r) => r.stopReason !== 'max_tokens').map((r) => r.text),
      ...recorded.constrained
        .filter((r) => r.stopReason !== 'max_tokens')
        .flatMap((r) => r.content.map((b) => b.text ?? JSON.stringify(b))),
    ];
    expect(ended.length).toBeGreaterThanOrEqual(6);
    for (const text of ended) expect(stopsAt(text)).toBeUndefined();
    const table = ['| city | temperature |', '| --- | --- |', '| Paris | 12 |', '| Tokyo | 18 |', '| Berlin | 9 |'];
    expect(stopsAt(table.join('\n').repeat(2))).toBeUndefined();
    expect(findRepetition('Paris is rainy. Tokyo is rainy. Berlin is rainy. '.repeat(1))).toBeUndefined();
  });

  it('fails the call as ModelRepeating, not retried, naming the unit and the tokens spent', () => {
    const found = findRepetition(looping.replies[0]!.text)!;
    const failure = repeatingReply(found, 122);
    expect(failure.type).toBe(FailureType.ModelRepeating);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toMatch(/^local model: the reply began repeating itself \(".*It is also a.*" \d+ times\)/);
    expect(failure.message).toContain('stopped after 122 tokens; a retry would repeat it');
  });
});
