import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { describe, expect, it } from 'vitest';
import { nativeSha256Hex } from '../../../src/activities/conversation/native-sha256-hex';
import { sha256Hex, useSha256Hex } from '../../../src/domain/text/sha256-hex';
import { textHash } from '../../../src/domain';

// FIPS 180-2's vector for "abc".
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

/** Texts of every kind a conversation holds: empty, ASCII, accents, astral symbols, a lone surrogate, long. */
const TEXTS = [
  '',
  'abc',
  'Résumé ✓',
  '𝄞 music and 😀',
  'half a pair: \ud83d end',
  'trailing high \udbff',
  JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'x'.repeat(5000) }] }),
  Array.from({ length: 2000 }, (_, i) => String.fromCharCode((i * 7919) % 0xffff)).join(''),
];

describe('the worker-side SHA-256 (the hash of a call by reference)', () => {
  it('gives the pure implementation digest on every kind of text', () => {
    // The pure one itself, whatever another test file in this process installed.
    const pure = TEXTS.map((t) => bytesToHex(sha256(utf8ToBytes(t))));
    expect(TEXTS.map((t) => nativeSha256Hex(t))).toEqual(pure);
    expect(nativeSha256Hex('abc')).toBe(ABC);
  });

  it('may replace the implementation, and hashes stay as they were', () => {
    const before = TEXTS.map((t) => textHash(t));
    useSha256Hex(nativeSha256Hex);
    expect(sha256Hex('abc')).toBe(ABC);
    expect(TEXTS.map((t) => textHash(t))).toEqual(before);
  });

  it('refuses an implementation that disagrees, and keeps the one it had (negative control)', () => {
    // UTF-16 bytes instead of UTF-8: right on nothing but the empty text.
    const utf16 = (text: string) => nativeSha256Hex(Buffer.from(text, 'utf16le').toString('latin1'));
    expect(() => useSha256Hex(utf16)).toThrow(/disagrees with the pure one/);
    // Lone surrogates read as '?', not U+FFFD: right on every probe but the one that has one.
    const raw = (text: string) => nativeSha256Hex(text.replace(/[\ud800-\udfff]/g, '?'));
    expect(() => useSha256Hex(raw)).toThrow(/disagrees/);
    expect(sha256Hex('abc')).toBe(ABC);
  });
});
