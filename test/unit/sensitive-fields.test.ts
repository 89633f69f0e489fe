import { describe, expect, it } from 'vitest';
import { redactFields, SENSITIVE } from '../../src/domain/secrets/sensitive-fields';

describe('redactFields', () => {
  it('replaces top-level and nested fields with the marker', () => {
    const out = redactFields({ password: 'hunter22', card: { number: '4111', expiry: '12/30' }, user: 'ann' }, [
      'password',
      'card.number',
    ]);
    expect(out).toEqual({ password: SENSITIVE, card: { number: '[SENSITIVE]', expiry: '12/30' }, user: 'ann' });
  });

  it('applies a path through an array to every element', () => {
    const out = redactFields({ items: [{ ssn: '1', name: 'a' }, { ssn: '2', name: 'b' }, 'loose'] }, ['items.ssn']);
    expect(out).toEqual({ items: [{ ssn: SENSITIVE, name: 'a' }, { ssn: SENSITIVE, name: 'b' }, 'loose'] });
  });

  it('applies through nested arrays and at the top level of an array value', () => {
    expect(redactFields({ rows: [[{ pin: 1 }], [{ pin: 2 }]] }, ['rows.pin'])).toEqual({
      rows: [[{ pin: SENSITIVE }], [{ pin: SENSITIVE }]],
    });
    expect(redactFields([{ pin: 1 }, { pin: 2 }], ['pin'])).toEqual([{ pin: SENSITIVE }, { pin: SENSITIVE }]);
  });

  it('picks one element when the segment is an index', () => {
    expect(redactFields({ items: [{ ssn: '1' }, { ssn: '2' }] }, ['items.1.ssn'])).toEqual({
      items: [{ ssn: '1' }, { ssn: SENSITIVE }],
    });
    expect(redactFields({ items: ['a', 'b'] }, ['items.0', 'items.9'])).toEqual({ items: [SENSITIVE, 'b'] });
  });

  it('replaces a whole subtree when the path names an object or array', () => {
    expect(redactFields({ card: { number: '4111' }, tags: ['x'] }, ['card', 'tags'])).toEqual({
      card: SENSITIVE,
      tags: SENSITIVE,
    });
  });

  it('ignores absent paths and never adds fields', () => {
    const input = { a: { b: 1 }, c: null };
    expect(redactFields(input, ['missing', 'a.x', 'a.b.c', 'c.d', '', 'a..b'])).toEqual({ a: { b: 1 }, c: null });
  });

  it('ignores inherited properties', () => {
    const out = redactFields({ a: 1 }, ['constructor', 'toString']);
    expect(out).toEqual({ a: 1 });
    expect(Object.keys(out)).toEqual(['a']);
  });

  it('uses a custom marker', () => {
    expect(redactFields({ secret: 's' }, ['secret'], '***')).toEqual({ secret: '***' });
  });

  it('returns non-objects as they are, including JSON text (which is not parsed)', () => {
    expect(redactFields('{"password":"x"}', ['password'])).toBe('{"password":"x"}');
    expect(redactFields(42, ['a'])).toBe(42);
    expect(redactFields(null, ['a'])).toBeNull();
    expect(redactFields(undefined, ['a'])).toBeUndefined();
  });

  it('returns a deep copy and leaves the input unchanged', () => {
    const input = { card: { number: '4111' }, other: { keep: [1, 2] } };
    const out = redactFields(input, ['card.number']);
    expect(input.card.number).toBe('4111');
    expect(out.other).not.toBe(input.other);
    expect(out.other.keep).not.toBe(input.other.keep);
    expect(out.other).toEqual(input.other);
  });
});
