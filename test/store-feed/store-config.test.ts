import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';

describe('THOUGHTLINE_STORE and THOUGHTLINE_STORE_RETENTION_DAYS in the config', () => {
  it('default to the SQLite file under the working directory, kept 400 days', () => {
    const config = loadConfig({});
    expect(config.store).toEqual({ kind: 'sqlite', file: path.resolve('.thoughtline/store.sqlite') });
    expect(config.storeRetentionDays).toBe(400);
  });

  it('read off, a PostgreSQL URL and the retention up to its limit', () => {
    expect(loadConfig({ THOUGHTLINE_STORE: 'off' }).store).toEqual({ kind: 'off' });
    expect(loadConfig({ THOUGHTLINE_STORE: 'postgres://db:5432/tl' }).store).toEqual({
      kind: 'postgres',
      url: 'postgres://db:5432/tl',
    });
    expect(loadConfig({ THOUGHTLINE_STORE_RETENTION_DAYS: '3650' }).storeRetentionDays).toBe(3650);
  });

  it('refuse what they cannot read, as the rest of the environment is refused', () => {
    expect(() => loadConfig({ THOUGHTLINE_STORE: 'mysql://db' })).toThrow(
      /Invalid environment:\nTHOUGHTLINE_STORE "mysql:\/\/db" is not a store/,
    );
    expect(() => loadConfig({ THOUGHTLINE_STORE_RETENTION_DAYS: '3651' })).toThrow(
      /Invalid environment:\nTHOUGHTLINE_STORE_RETENTION_DAYS must be a whole number of days from 1 to 3650/,
    );
  });
});
