import { describe, expect, it } from 'vitest';
import { viewerModule } from './viewer-module';

interface ScoresModule {
  scoreFacts(score: unknown): string;
}

describe("the viewer's scores panel, pure parts", () => {
  it('reads a score as value, who, when and where from, leaving out what it lacks', async () => {
    const { scoreFacts } = await viewerModule<ScoresModule>('scores.js');
    const facts = scoreFacts({
      name: 'accepted',
      value: 1,
      by: 'alice',
      at: '2026-11-25T14:02:00.000Z',
      source: 'zendesk',
    });
    expect(facts).toMatch(/^1 · by alice · 25 Nov \d\d:02 · via zendesk$/);
    expect(scoreFacts({ name: 'csat', value: 4.5, by: 'bob', at: 'not a date' })).toBe('4.5 · by bob · not a date');
    expect(scoreFacts({ name: 'x', value: 0 })).toBe('0');
  });

  it('never throws on what the API should not send: a missing value reads as "?"', async () => {
    const { scoreFacts } = await viewerModule<ScoresModule>('scores.js');
    for (const bad of [null, undefined, 42, 'x', {}, { value: '1' }, { value: Number.NaN, by: 7, source: {} }])
      expect(scoreFacts(bad)).toBe('?');
  });
});
