import { defineConfig } from 'vitest/config';

// `npm run chaos`: the chaos scenarios at full size (CHAOS_SCALE=full), on the suite's dev server.
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.test.ts'],
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    env: { CHAOS_SCALE: 'full' },
    testTimeout: 1_800_000,
    hookTimeout: 300_000,
  },
});
