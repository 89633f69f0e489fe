import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { priceFor } from '../../src/domain/model/pricing';

/*
 * Issue 65, "the docs show results nobody measured": docs/images/evaluation-report.png was drawn
 * from a test fixture naming Claude models and a $0.30 spend. Now scripts/eval-report-screenshot.sh
 * takes it of a real evaluation on the offline model and writes where it came from into the PNG.
 */

const IMAGES = path.resolve(__dirname, '../../docs/images');
/** Pictures stay small: the repository and every clone carry them. */
const MAX_IMAGE_BYTES = 256 * 1024;

/** The tEXt chunks of a PNG, keyword to text. */
function pngTexts(png: Buffer): Record<string, string> {
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  const texts: Record<string, string> = {};
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    if (type === 'tEXt') {
      const data = png.subarray(at + 8, at + 8 + length);
      const nul = data.indexOf(0);
      texts[data.subarray(0, nul).toString('latin1')] = data.subarray(nul + 1).toString('latin1');
    }
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return texts;
}

describe('the pictures in docs/images', () => {
  it('the evaluation report is a real offline evaluation, and names no model anyone could take for a real one', () => {
    const texts = pngTexts(fs.readFileSync(path.join(IMAGES, 'evaluation-report.png')));
    expect(texts.Source).toMatch(
      /^thoughtline eval eval\/loop\.jsonl .*--model offline-model .*no API key \(evaluation of /,
    );
    const models = (texts.Models ?? '').split('; ');
    expect(models).toEqual(['offline-model: anthropic/offline-model']);
    // None of them is priced: no real model's name, so no cost a reader could take for a measured one.
    for (const entry of models) expect(priceFor(entry.split('/').at(-1)!)).toBeUndefined();
  });

  it('every picture is a PNG of at most 256 KiB', () => {
    const files = fs.readdirSync(IMAGES);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file).toMatch(/\.png$/);
      const png = fs.readFileSync(path.join(IMAGES, file));
      expect(png.subarray(1, 4).toString(), file).toBe('PNG');
      expect(png.length, file).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
    }
  });
});
