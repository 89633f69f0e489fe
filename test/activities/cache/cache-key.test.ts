import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cacheKey, canonicalJson } from '../../../src/activities/cache/cache-key';

describe('cacheKey and "no tenant"', () => {
  const request = { word: 'temporal' };
  const legacy = (tenant: string) =>
    createHash('sha256')
      .update(canonicalJson([tenant, 'tool', 'lookup', request]))
      .digest('hex');

  it('keeps the key runs without a tenant always had, so their stored entries are still found', () => {
    expect(cacheKey(undefined, 'tool', 'lookup', request)).toBe(legacy('default'));
  });

  it('gives a tenant called "default" a key of its own, apart from runs without a tenant', () => {
    expect(cacheKey('default', 'tool', 'lookup', request)).not.toBe(cacheKey(undefined, 'tool', 'lookup', request));
    // Every other tenant keeps its key.
    expect(cacheKey('acme', 'tool', 'lookup', request)).toBe(legacy('acme'));
  });
});
