import { describe, expect, it } from 'vitest';
import { rankLearnings } from '../../../src/activities/memory/rank-learnings';
import { MAX_MEMORY_ENTRIES, MAX_RECALLED_ENTRIES, type MemoryEntry } from '../../../src/domain/planning/agent-memory';

/** Entries oldest first, as the memory stores them. */
const entries = (texts: string[]): MemoryEntry[] =>
  texts.map((text, i) => ({ id: `e${i}`, text, fromRun: `run-${i}`, at: `2026-11-${String(i + 1).padStart(2, '0')}` }));
const texts = (r: { entries: MemoryEntry[] }) => r.entries.map((e) => e.text);

describe('rankLearnings', () => {
  const memory = entries([
    'refunds over 500 EUR need a second approver',
    'the staging cluster restarts at night',
    'use the v2 invoices endpoint; v1 is gone',
    'retry once on 429 from the invoices API',
    'the staging cluster is slow on Mondays',
  ]);

  it('puts the learnings that share the goal’s words first, the best match first, then the newest', () => {
    const r = rankLearnings(memory, 'Sync the invoices through the v2 endpoint', 3);
    expect(texts(r)).toEqual([
      'use the v2 invoices endpoint; v1 is gone',
      'retry once on 429 from the invoices API',
      'the staging cluster is slow on Mondays',
    ]);
    expect(r).toMatchObject({ considered: 5, matched: 2 });
  });

  it('matches a longer word by its start ("refund" finds "refunds"), never by small words like "the"', () => {
    const r = rankLearnings(memory, 'Approve the refund', 2);
    expect(texts(r)).toEqual(['refunds over 500 EUR need a second approver', 'the staging cluster is slow on Mondays']);
    expect(r.matched).toBe(1);
    expect(rankLearnings(memory, 'the of and', 5)).toMatchObject({ matched: 0 });
  });

  it('ranks equal scores newest first', () => {
    const twins = entries(['deploy on Friday is forbidden', 'nothing here', 'deploy on Friday is forbidden!']);
    expect(rankLearnings(twins, 'deploy friday', 3).entries.map((e) => e.id)).toEqual(['e2', 'e0', 'e1']);
  });

  it('recalls the newest first for a goal without words, or when nothing matches (the order before ranking, reversed)', () => {
    for (const query of ['', '  !? ', 'unrelated words entirely'])
      expect(rankLearnings(memory, query, 2).entries.map((e) => e.id)).toEqual(['e4', 'e3']);
    expect(rankLearnings([], 'anything', MAX_RECALLED_ENTRIES)).toEqual({ entries: [], considered: 0, matched: 0 });
  });

  it('is bounded: a full memory gives at most the limit, however many match', () => {
    const full = entries(Array.from({ length: MAX_MEMORY_ENTRIES }, (_, i) => `invoice rule ${i}`));
    const r = rankLearnings(full, 'invoice', MAX_RECALLED_ENTRIES);
    expect(r).toMatchObject({ considered: MAX_MEMORY_ENTRIES, matched: MAX_RECALLED_ENTRIES });
    expect(r.entries).toHaveLength(MAX_RECALLED_ENTRIES);
    // Every entry scores the same: the newest ten.
    expect(r.entries[0]!.id).toBe(`e${MAX_MEMORY_ENTRIES - 1}`);
  });
});
