import { describe, expect, it } from 'vitest';
import { cutToSize, toJsonSafe } from '../../src/tools/json-safe';

describe('toJsonSafe', () => {
  it('makes awkward values plain JSON', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    const out = toJsonSafe({
      big: 10n,
      when: new Date('2026-01-01T00:00:00Z'),
      nan: Number.NaN,
      fn: () => 1,
      undef: undefined,
      map: new Map([['k', 1]]),
      set: new Set([1, 2]),
      err: new TypeError('bad'),
      cyclic,
    });
    expect(out).toEqual({
      big: '10',
      when: '2026-01-01T00:00:00.000Z',
      nan: 'NaN',
      map: { k: 1 },
      set: [1, 2],
      err: { name: 'TypeError', message: 'bad' },
      cyclic: { a: 1, self: '[Circular]' },
    });
    expect(() => JSON.stringify(out)).not.toThrow();
  });

  it('keeps a value shared by two branches (not a cycle)', () => {
    const shared = { x: 1 };
    expect(toJsonSafe({ a: shared, b: shared })).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });
});

describe('cutToSize', () => {
  it('leaves small results alone', () => {
    expect(cutToSize({ a: 1 }, 100)).toEqual({ result: { a: 1 }, truncated: false });
  });

  it('cuts large results with a visible marker saying how much was kept', () => {
    const { result, truncated } = cutToSize('x'.repeat(1000), 100);
    expect(truncated).toBe(true);
    expect(result).toMatch(/^x{100}\n…\[truncated: showing 100 of 1000 characters\]$/);
  });
});
