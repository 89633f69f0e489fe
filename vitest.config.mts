import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/sequencing/longest-first.mjs';
import { SuiteProgressReporter } from './test/reporting/suite-progress-reporter.mjs';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const listed = (file: string): string[] => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')).files;
/** The slow stage's files (test/slow-files.json): in exactly one of `npm test` and `npm run test:slow`. */
const SLOW_FILES = listed('./test/slow-files.json');
/** Files that need a process of their own (test/own-process-files.json says why). */
const OWN_PROCESS_FILES = listed('./test/own-process-files.json');

// The cluster's own tests need a cluster (`npm run test:cluster` starts one); the slow scenarios
// run in their own stage (`npm run test:slow`).
const EXCLUDE = [...configDefaults.exclude, 'test/cluster/**', ...SLOW_FILES];
// Node's on-disk compile cache for every process of the run (the test workers, and the CLI and
// servers they spawn inherit it): a CLI started 200 times compiles its modules once.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('./.thoughtline/tmp/node-compile-cache', import.meta.url));

/** What both projects share. Not `extends: true`: it would run the global setup once per project. */
const common = {
  // Temporal's native worker is happiest in child processes, not worker threads.
  pool: 'forks',
  testTimeout: 60_000,
  hookTimeout: 180_000,
} as const;

export default defineConfig({
  test: {
    // One real Temporal server and one workflow bundle for the whole run (the root project's setup;
    // the projects below inherit what it provides).
    globalSetup: ['test/global-setup.ts'],
    // Longest files first, on a clean clone too (test/sequencing/longest-first.mts).
    sequence: { sequencer: LongestFirstSequencer },
    // Each file's line carries the run's count so far (test/reporting/suite-progress-reporter.mts).
    reporters: [new SuiteProgressReporter()],
    // A file more than the machine has cores (vitest's default is a core fewer, so one on 2 cores):
    // part of a file's time is spent waiting on the dev server, a worker or a child process, and a
    // third file fills it. Measured on 2 cores, test/workflows' 71 files: 127 s with two, 119 s with
    // three (issue 80).
    maxWorkers: availableParallelism() + 1,
    // A gRPC retry a file's Temporal client had scheduled, firing after the file closed that
    // connection: in a process of its own the file's exit dropped the timer; in a shared one it
    // throws into whichever file runs next. Only that exact error (the SDK's retry timer on a
    // channel we shut) is let go; anything else still fails the run.
    onUnhandledError: (error) =>
      !(error.message === 'Channel has been shut down' && /grpc-retry\.js/.test(error.stack ?? '')),
    projects: [
      {
        test: {
          ...common,
          name: 'own-process',
          include: OWN_PROCESS_FILES,
          exclude: EXCLUDE,
        },
      },
      {
        test: {
          ...common,
          name: 'shared-process',
          include: ['test/**/*.test.ts'],
          exclude: [...EXCLUDE, ...OWN_PROCESS_FILES],
          // A file runs in a worker process that earlier files used: modules, the native runtime
          // and the compile cache load once per worker instead of once per file (the suite's
          // import time was a third of its test time).
          isolate: false,
        },
      },
    ],
  },
});
