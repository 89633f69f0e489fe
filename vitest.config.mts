import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The cluster's own tests need a cluster (`npm run test:cluster` starts one).
    exclude: [...configDefaults.exclude, 'test/cluster/**'],
    // Temporal's native worker is happiest in child processes, not worker threads.
    pool: 'forks',
    // At least two files at a time (vitest's default is a core fewer than the machine has, so one on
    // 2 cores): most of a file's time is spent waiting on the dev server, a worker or a child
    // process, not on its own CPU. On 2 cores this takes the suite from about 910 s to 550–620 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
