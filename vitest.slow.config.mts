import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/sequencing/longest-first.mjs';
import { SuiteProgressReporter } from './test/reporting/suite-progress-reporter.mjs';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `npm run test:slow`: the long end-to-end scenarios (a real minute of rate-limit waiting, the CLI
// following runs in a terminal, the installed package, Chromium, a secured cluster, 500-iteration
// runs, the short chaos scenarios, the CLI's process-heavy files), kept out of `npm test` so the
// default suite stays under 10 minutes on 2 cores. CI runs them right after it (.ci/run); nothing
// here is skipped, only scheduled apart.
/** The slow stage's files (test/slow-files.json): in exactly one of `npm test` and `npm run test:slow`. */
const SLOW_FILES: string[] = JSON.parse(readFileSync(new URL('./test/slow-files.json', import.meta.url), 'utf8')).files;

// Node's on-disk compile cache for the workers and every CLI they spawn (vitest.config.mts says why).
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('./.thoughtline/tmp/node-compile-cache', import.meta.url));

export default defineConfig({
  test: {
    include: [...SLOW_FILES],
    exclude: [...configDefaults.exclude],
    pool: 'forks',
    // Three files at a time, not the default suite's two: much of this stage waits (a real minute of
    // rate limits, npm installing the package, Chromium, servers starting), and waits overlap.
    // Measured: 500 s with two, 340 s with three (issue 64's note).
    maxWorkers: 3,
    globalSetup: ['test/global-setup.ts'],
    // Longest files first, on a clean clone too (test/sequencing/longest-first.mts).
    sequence: { sequencer: LongestFirstSequencer },
    // Each file's line carries the run's count so far (test/reporting/suite-progress-reporter.mts).
    reporters: [new SuiteProgressReporter()],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
