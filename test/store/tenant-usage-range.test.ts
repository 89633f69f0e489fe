import { describe, expect, it } from 'vitest';
import { MAX_USAGE_DAYS } from '../../src/domain/store';
import { MAX_RANGE_TEXT, UsageRangeError, usageRange } from '../../src/store/usage/usage-range';

const now = new Date('2026-11-26T08:00:00.000Z');
const refused = (given: { since?: string; until?: string }) => {
  try {
    usageRange(given, now);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageRangeError);
    return { field: (err as UsageRangeError).field, message: (err as Error).message };
  }
  throw new Error('the range was accepted');
};

describe('usageRange', () => {
  it('reads spans before until, ISO times and days, and defaults to the last 30 days up to now', () => {
    expect(usageRange({ since: '7d' }, now)).toEqual({
      from: '2026-11-19T08:00:00.000Z',
      to: '2026-11-26T08:00:00.000Z',
    });
    expect(usageRange({ since: '12h', until: '2026-11-02' }, now)).toEqual({
      from: '2026-11-01T12:00:00.000Z',
      to: '2026-11-02T00:00:00.000Z',
    });
    expect(usageRange({ since: '2026-11-01T01:00:00+01:00' }, now).from).toBe('2026-11-01T00:00:00.000Z');
    expect(usageRange({}, now)).toEqual({ from: '2026-10-27T08:00:00.000Z', to: '2026-11-26T08:00:00.000Z' });
  });

  it(`covers at most ${MAX_USAGE_DAYS} days, and refuses one more`, () => {
    expect(usageRange({ since: `${MAX_USAGE_DAYS}d` }, now).from).toBe('2025-11-25T08:00:00.000Z');
    expect(refused({ since: `${MAX_USAGE_DAYS + 1}d` })).toEqual({
      field: 'since',
      message: `A usage report covers at most ${MAX_USAGE_DAYS} days; narrow since and until.`,
    });
  });

  it('refuses what it cannot read, naming the field, and a since not before until', () => {
    expect(refused({ since: 'last week' })).toMatchObject({
      field: 'since',
      message: expect.stringContaining('7d or 12h'),
    });
    expect(refused({ since: '7w' }).field).toBe('since');
    expect(refused({ since: '-7d' }).field).toBe('since');
    expect(refused({ since: '9999999d' }).field).toBe('since');
    expect(refused({ until: '7d' })).toMatchObject({ field: 'until', message: expect.stringContaining('ISO time') });
    expect(refused({ until: '2026-13-01' }).field).toBe('until');
    expect(refused({ since: '0d' })).toEqual({ field: 'since', message: '"since" must be before "until".' });
    expect(refused({ since: '2026-11-02', until: '2026-11-01' }).message).toBe('"since" must be before "until".');
  });

  it(`reads at most ${MAX_RANGE_TEXT} characters`, () => {
    const long = `2026-11-01T00:00:00.${'0'.repeat(MAX_RANGE_TEXT - 21)}Z`;
    expect(long).toHaveLength(MAX_RANGE_TEXT);
    expect(usageRange({ since: long }, now).from).toBe('2026-11-01T00:00:00.000Z');
    expect(refused({ since: `${long}0` })).toEqual({
      field: 'since',
      message: `"since" is at most ${MAX_RANGE_TEXT} characters.`,
    });
  });
});
