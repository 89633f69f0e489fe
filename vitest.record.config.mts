import { defineConfig } from 'vitest/config';

/** `npm run record-fixtures`: records the missing replay fixtures of test/replay/fixtures and test/replay/entity-fixtures (RECORD_ALL=1: all). */
export default defineConfig({
  test: {
    include: ['test/replay/*.recorder.ts'],
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
