import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/sequencing/longest-first.mjs';
import { SuiteProgressReporter } from './test/reporting/suite-progress-reporter.mjs';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { matchesGlob } from 'node:path';

// `npm run test:slow`: the long end-to-end scenarios (the CLI following runs in a terminal, the
// installed package, Chromium, a secured cluster, 500-iteration runs, the short chaos scenarios,
// the CLI's process-heavy files), kept out of `npm test` so the default suite stays under 10
// minutes on 2 cores. CI runs them right after it (.ci/run); nothing here is skipped, only
// scheduled apart.
const listed = (file: string): string[] => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')).files;
/** The slow stage's files (test/slow-files.json): in exactly one of `npm test` and `npm run test:slow`. */
const SLOW_FILES = listed('./test/slow-files.json');
/** Files that need a process of their own (test/own-process-files.json says why), here as in `npm test`. */
const OWN_PROCESS_FILES = listed('./test/own-process-files.json');

// Node's on-disk compile cache for the workers and every CLI they spawn (vitest.config.mts says why).
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('./.thoughtline/tmp/node-compile-cache', import.meta.url));

/** What both projects share. Not `extends: true`: it would run the global setup once per project. */
const common = {
  pool: 'forks',
  testTimeout: 60_000,
  hookTimeout: 180_000,
} as const;

export default defineConfig({
  test: {
    // Three files at a time, not the default suite's two: much of this stage waits (npm installing
    // the package, Chromium, servers starting), and waits overlap.
    // Measured: 500 s with two, 340 s with three (issue 64's note).
    maxWorkers: 3,
    globalSetup: ['test/global-setup.ts'],
    // Longest files first, on a clean clone too (test/sequencing/longest-first.mts).
    sequence: { sequencer: LongestFirstSequencer },
    // Each file's line carries the run's count so far (test/reporting/suite-progress-reporter.mts).
    reporters: [new SuiteProgressReporter()],
    // The same split as `npm test`'s: a file that sets process-wide state runs in a process of its
    // own; every other file shares its worker process with the files before it, so the modules, the
    // native runtime and the compile cache load once per worker instead of once per file (a fresh
    // process per file spent seconds of CPU importing before its first test: issue 80's note).
    projects: [
      {
        test: {
          ...common,
          name: 'own-process',
          include: SLOW_FILES.filter((file) => OWN_PROCESS_FILES.some((glob) => matchesGlob(file, glob))),
        },
      },
      {
        test: {
          ...common,
          name: 'shared-process',
          include: SLOW_FILES,
          exclude: [...configDefaults.exclude, ...OWN_PROCESS_FILES],
          isolate: false,
        },
      },
    ],
  },
});
