import { describe, expect, it } from 'vitest';
import { goalKey, MAX_GOAL_KEY_CHARS, planToolsKey } from '../../../src/domain/planning/goal-key';
import { cacheHitText } from '../../../src/domain/planning/cache-hit-text';
import { toolCacheRequest, uncacheableReason } from '../../../src/domain/planning/cache-request';
import { AgentInput } from '../../../src/domain';

describe('goalKey', () => {
  it('gives similar goals one key: case, spacing, punctuation, order, repeats and stop words aside', () => {
    const key = goalKey('Summarise the sales report for Q3, please!');
    expect(key).toBe('q3 report sales summarise');
    expect(goalKey('  summarise   Q3 sales report ')).toBe(key);
    expect(goalKey('Report: sales (Q3) — summarise, summarise.')).toBe(key);
    expect(goalKey('Summarise the sales report for Q4')).not.toBe(key);
    expect(goalKey('Résumé für Übersicht')).toBe('für résumé übersicht');
    expect(goalKey('the a of')).toBe('');
  });

  it('keeps the roles words play: a goal and its reverse get two keys, a reordering of the same roles one', () => {
    expect(goalKey('Convert USD to EUR')).toBe('convert eur usd; from usd; to eur');
    expect(goalKey('Convert EUR to USD')).not.toBe(goalKey('Convert USD to EUR'));
    expect(goalKey('convert, to EUR from USD')).toBe(goalKey('Convert USD into EUR'));
    // Goals without roles keep the key they had.
    expect(goalKey('Summarise the sales report for Q3')).toBe('q3 report sales summarise');
  });

  it('is bounded, cut at a word', () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${String(i).padStart(3, '0')}`);
    const key = goalKey(words.join(' '));
    expect(key.length).toBeLessThanOrEqual(MAX_GOAL_KEY_CHARS);
    expect(key.endsWith(' ')).toBe(false);
    expect(key.split(' ').every((w) => words.includes(w))).toBe(true);
  });

  it('sorts and dedupes the tool names', () => {
    expect(planToolsKey(['search', 'calc', 'search'])).toEqual(['calc', 'search']);
  });
});

describe('which tools a run caches', () => {
  const input = { cache: { ttlMs: 60_000, tools: ['search', 'pay', 'ask'], model: false, plans: false } };
  it('only listed tools, never a once or llm tool, under the caller’s tenant or none (never a tenant called default)', () => {
    expect(toolCacheRequest(input, { name: 'search', type: 'external' })).toEqual({ ttlMs: 60_000 });
    const acme: AgentInput = AgentInput.parse({ task: 't', ...input, caller: { id: 'u', tenant: 'acme' } });
    expect(toolCacheRequest(acme, { name: 'search', type: 'external' })).toEqual({ tenant: 'acme', ttlMs: 60_000 });
    expect(toolCacheRequest(input, { name: 'other', type: 'external' })).toBeUndefined();
    expect(toolCacheRequest(input, { name: 'pay', type: 'external', effects: 'once' })).toBeUndefined();
    expect(uncacheableReason({ type: 'external', effects: 'once' })).toMatch(/once/);
    expect(toolCacheRequest(input, { name: 'ask', type: 'llm' })).toBeUndefined();
    expect(toolCacheRequest({}, { name: 'search', type: 'external' })).toBeUndefined();
  });
});

describe('cacheHitText', () => {
  it('names the run and the age in a readable unit', () => {
    const hit = { kind: 'tool' as const, fromRun: 'run-1', storedAt: '2026-01-01T00:00:00.000Z' };
    expect(cacheHitText({ ...hit, ageMs: 42_000 })).toBe('cached from run run-1, 42 s old');
    expect(cacheHitText({ ...hit, ageMs: 3 * 60_000 + 5 })).toBe('cached from run run-1, 3 min old');
    expect(cacheHitText({ ...hit, ageMs: 5 * 3_600_000 })).toBe('cached from run run-1, 5 h old');
    expect(cacheHitText({ ...hit, ageMs: 3 * 86_400_000 })).toBe('cached from run run-1, 3 days old');
  });
});
