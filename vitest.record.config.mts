import { defineConfig } from 'vitest/config';

/** `npm run record-fixtures`: re-records the replay fixtures in test/replay/fixtures. */
export default defineConfig({
  test: {
    include: ['test/replay/*.recorder.ts'],
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
