import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { readFileSync } from 'node:fs';

/** The slow stage's files (test/slow-files.json): in exactly one of `npm test` and `npm run test:slow`. */
const SLOW_FILES: string[] = JSON.parse(readFileSync(new URL('./test/slow-files.json', import.meta.url), 'utf8')).files;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The cluster's own tests need a cluster (`npm run test:cluster` starts one); the slow
    // scenarios run in their own stage (`npm run test:slow`, test/slow-files.ts).
    exclude: [...configDefaults.exclude, 'test/cluster/**', ...SLOW_FILES],
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
