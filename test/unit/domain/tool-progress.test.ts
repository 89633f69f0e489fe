import { describe, expect, it } from 'vitest';
import {
  boundedProgress,
  MAX_PROGRESS_DATA_BYTES,
  MAX_PROGRESS_MESSAGE_CHARS,
} from '../../../src/domain/tools/tool-progress';

describe('boundedProgress: a tool update within its bounds', () => {
  it('takes a line as the message', () => {
    expect(boundedProgress('scanned 1,200 files')).toEqual({ message: 'scanned 1,200 files' });
  });

  it('keeps a message of exactly the limit and cuts one character more', () => {
    const at = 'a'.repeat(MAX_PROGRESS_MESSAGE_CHARS);
    expect(boundedProgress(at)).toEqual({ message: at });
    expect(boundedProgress(`${at}b`)).toEqual({ message: `${at}…` });
  });

  it('clamps a fraction into 0–1 and leaves out one that is not a finite number', () => {
    expect(boundedProgress({ fraction: 0 })).toEqual({ fraction: 0 });
    expect(boundedProgress({ fraction: 1 })).toEqual({ fraction: 1 });
    expect(boundedProgress({ fraction: 1.5 })).toEqual({ fraction: 1 });
    expect(boundedProgress({ fraction: -2 })).toEqual({ fraction: 0 });
    expect(boundedProgress({ message: 'x', fraction: Number.NaN })).toEqual({ message: 'x' });
  });

  it('keeps data of exactly the byte limit and leaves out one byte more', () => {
    // {"s":"…"} is 8 bytes around the string.
    const at = { s: 'x'.repeat(MAX_PROGRESS_DATA_BYTES - 8) };
    expect(JSON.stringify(at).length).toBe(MAX_PROGRESS_DATA_BYTES);
    expect(boundedProgress({ data: at })).toEqual({ data: at });
    const over = { s: 'x'.repeat(MAX_PROGRESS_DATA_BYTES - 7) };
    expect(boundedProgress({ message: 'big', data: over })).toEqual({ message: 'big' });
  });

  it('drops what it cannot read rather than throw at the tool', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(boundedProgress({ data: cyclic })).toBeUndefined();
    expect(boundedProgress(42)).toBeUndefined();
    expect(boundedProgress(null)).toBeUndefined();
    expect(boundedProgress(['a'])).toBeUndefined();
    expect(boundedProgress({})).toBeUndefined();
  });
});
