import { describe, expect, it } from 'vitest';
import { tenantFolderName } from '../../../src/eval/from-run';

/** A tenant's datasets folder name under `serve --datasets DIR`: an allow-list encoding, one-to-one. */
describe('tenantFolderName', () => {
  it('keeps lower-case letters, digits and "-"; encodes every other byte as _xx', () => {
    expect(tenantFolderName('acme')).toBe('acme');
    expect(tenantFolderName('acme-2')).toBe('acme-2');
    expect(tenantFolderName('Acme')).toBe('_41cme');
    expect(tenantFolderName('..')).toBe('_2e_2e');
    expect(tenantFolderName('../globex')).toBe('_2e_2e_2fglobex');
    expect(tenantFolderName('a_b')).toBe('a_5fb');
    expect(tenantFolderName('é')).toBe('_c3_a9');
  });

  it('never gives two tenants one folder, even where stripping would (a.b, ab, a/b, A_b, a_5fb)', () => {
    const tenants = ['a.b', 'ab', 'a/b', 'A_b', 'a_b', 'a_5fb', 'a b', 'a\u0000b', 'AB', 'Ab', 'tenants', 'recordings'];
    const names = tenants.map(tenantFolderName);
    expect(new Set(names).size).toBe(tenants.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9_-]+$/);
  });

  it('cuts a long encoding and adds a hash: at most 120 characters, still one-to-one', () => {
    const long = 'x'.repeat(100) + 'Y'.repeat(100);
    const other = 'x'.repeat(100) + 'Y'.repeat(99) + 'Z';
    expect(tenantFolderName(long).length).toBeLessThanOrEqual(120);
    expect(tenantFolderName(long)).toMatch(/^x{64}~[0-9a-f]{32}$/);
    expect(tenantFolderName(other)).not.toBe(tenantFolderName(long));
    expect(tenantFolderName('é'.repeat(200))).toMatch(/^(_c3_a9){10}_c3~[0-9a-f]{32}$/);
  });
});
