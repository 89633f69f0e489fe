import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../src/domain/approval/arguments-hash';
import { callKey } from '../../../../src/workflows/core/stable-hash';

describe('canonicalJson', () => {
  it('sorts object keys at every depth, inside arrays too, and keeps array order', () => {
    const value = { z: 1, a: { y: [3, { q: true, b: null }, 1], c: 'x' }, m: [{ k: 2, j: 1 }] };
    expect(canonicalJson(value)).toBe('{"a":{"c":"x","y":[3,{"b":null,"q":true},1]},"m":[{"j":1,"k":2}],"z":1}');
  });

  it('gives the same text for the same data in any key order', () => {
    const one = { city: 'Paris', filters: { units: 'C', days: 3, extra: { b: 2, a: 1 } } };
    const two = { filters: { extra: { a: 1, b: 2 }, days: 3, units: 'C' }, city: 'Paris' };
    expect(canonicalJson(one)).toBe(canonicalJson(two));
    expect(canonicalJson(one)).not.toBe(JSON.stringify(two));
  });

  it('is valid JSON that parses back to the same data', () => {
    const value = { 'quo"te': 'line\nbreak', n: -1.5e-7, u: 'é ✓', list: [[], {}, [null]], t: false };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });

  it('writes scalars as JSON does', () => {
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
    expect(canonicalJson(42)).toBe('42');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
  });

  it('sorts keys by code unit, not locale', () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3, _: 4, '10': 5, '9': 6 })).toBe('{"10":5,"9":6,"B":2,"_":4,"a":3,"b":1}');
  });
});

describe('callKey', () => {
  it('is equal for the same tool and arguments with keys in another order, at any depth', () => {
    expect(callKey('lookup', { a: 1, b: { c: [1, 2], d: 'x' } })).toBe(
      callKey('lookup', { b: { d: 'x', c: [1, 2] }, a: 1 }),
    );
  });

  it('differs for different arguments', () => {
    const key = callKey('lookup', { key: 'a' });
    expect(callKey('lookup', { key: 'b' })).not.toBe(key);
    expect(callKey('lookup', { key: 'a', extra: 1 })).not.toBe(key);
    expect(callKey('lookup', {})).not.toBe(key);
    // Types and array order count.
    expect(callKey('lookup', { n: 1 })).not.toBe(callKey('lookup', { n: '1' }));
    expect(callKey('lookup', { l: [1, 2] })).not.toBe(callKey('lookup', { l: [2, 1] }));
    expect(callKey('lookup', { a: { b: 1 } })).not.toBe(callKey('lookup', { a: { b: 2 } }));
  });

  it('differs for different tool names with the same arguments', () => {
    expect(callKey('lookup', { key: 'a' })).not.toBe(callKey('search', { key: 'a' }));
    expect(callKey('a', {})).not.toBe(callKey('b', {}));
  });

  it('names the tool and ends in a 64-bit hex fingerprint', () => {
    expect(callKey('lookup', { key: 'a' })).toMatch(/^lookup#[0-9a-f]{16}$/);
    expect(callKey('lookup', { key: 'x'.repeat(10_000) })).toMatch(/^lookup#[0-9a-f]{16}$/);
  });

  it('is stable across versions: keys are carried across continue-as-new and replay', () => {
    // FNV-1a 32-bit of the canonical text, then of `text|tool`.
    expect(callKey('lookup', { k: 'a', b: [1, { d: 'x', c: 2 }] })).toBe('lookup#b7ef5c39b8b65c29');
  });
});
