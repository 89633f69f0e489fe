import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256HexOfText } from '../../../../src/domain/text/sha256-words';

const nodeSha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A seeded generator (mulberry32): the same texts on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A text of `length` UTF-16 units mixing ASCII, two- and three-byte characters, pairs and lone surrogates. */
function mixedText(random: () => number, length: number): string {
  let text = '';
  while (text.length < length) {
    const r = random();
    if (r < 0.6) text += String.fromCharCode(0x20 + Math.floor(random() * 0x5f));
    else if (r < 0.7) text += String.fromCharCode(0x80 + Math.floor(random() * 0x780));
    else if (r < 0.8) text += String.fromCharCode(0x800 + Math.floor(random() * 0xd000));
    else if (r < 0.9) text += String.fromCodePoint(0x10000 + Math.floor(random() * 0xfffff));
    else text += String.fromCharCode(0xd800 + Math.floor(random() * 0x800));
  }
  return text;
}

describe('sha256HexOfText (the workflow side of a call by reference)', () => {
  it('gives the FIPS 180-2 vectors', () => {
    expect(sha256HexOfText('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256HexOfText('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256HexOfText('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it("agrees with Node's crypto on ASCII texts of every length across the padding's block edges", () => {
    for (let length = 0; length <= 200; length += 1) {
      const text = 'q'.repeat(length);
      expect(sha256HexOfText(text), `length ${length}`).toBe(nodeSha256(text));
    }
  });

  it("agrees with Node's crypto on mixed texts, lone surrogates (as U+FFFD) included", () => {
    const random = seeded(81);
    for (let i = 0; i < 3000; i += 1) {
      const text = mixedText(random, Math.floor(random() * 300));
      expect(sha256HexOfText(text), JSON.stringify(text)).toBe(nodeSha256(text));
    }
    for (const edge of ['\ud800', 'a\udc00', '\udbff\udbff\udfff', '\ud83d\ude00', 'x'.repeat(55) + 'é'])
      expect(sha256HexOfText(edge), JSON.stringify(edge)).toBe(nodeSha256(edge));
  });

  it("agrees with Node's crypto on long texts, ASCII and not", () => {
    const long = JSON.stringify({ role: 'user', content: 'x'.repeat(200_000) });
    expect(sha256HexOfText(long)).toBe(nodeSha256(long));
    const mixed = mixedText(seeded(7), 100_000);
    expect(sha256HexOfText(mixed)).toBe(nodeSha256(mixed));
  });
});
