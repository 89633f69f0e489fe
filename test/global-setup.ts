import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { cachedWorkflowBundle } from '../src/cli/setup/cached-workflow-bundle';
import { memoryScratchRoot, SCRATCH_ROOT_VARIABLE } from './helpers/scratch-dir';
import { startSuiteServer } from './helpers/suite-server';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    temporalNamespace: string;
    workflowBundlePath: string;
  }
}

/**
 * One real Temporal server and one workflow bundle for the whole run; every test file shares them.
 * The server is a dev server of its own, or the one THOUGHTLINE_TEST_TEMPORAL_ADDRESS names. The
 * bundle is the CLI's cached one, kept under .thoughtline/tmp until src/ or the installed
 * dependencies change: CI's later stages, and a developer's next run, skip webpack's seconds.
 * The run's temporary files (the files', and those of every process they start) go in one folder,
 * TMPDIR for the workers, removed at the end with the run's memory-backed scratch folder: files
 * that left theirs behind left about 35 folders in /tmp a run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-suite-'));
  // As /tmp's own mode: the test PostgreSQL runs as the `postgres` user, in a folder made here.
  fs.chmodSync(tmp, 0o1777);
  // Installs of the packed package go in memory when there is room (helpers/scratch-dir.ts).
  const scratch = memoryScratchRoot();
  const removeRunFolders = () => {
    for (const dir of [tmp, scratch]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
  process.env.TMPDIR = tmp;
  if (scratch) process.env[SCRATCH_ROOT_VARIABLE] = scratch;
  // The run's first lines: the files' own lines follow once the server and the bundle are ready.
  console.error('[suite] starting the Temporal dev server; the workflow bundle is reused or built once for the run…');
  // Side by side: the server mostly waits on its own process while the bundler computes.
  const [serving, bundling] = await Promise.allSettled([
    startSuiteServer((line) => console.error(`[temporal] ${line}`)),
    cachedWorkflowBundle({
      cacheDir: path.resolve(__dirname, '../.thoughtline/tmp/suite-bundles'),
      // The suite's workers register no OpenTelemetry sinks: its bundle holds no telemetry interceptor.
      env: {},
    }),
  ]);
  // A server started for a bundle that failed is stopped, not orphaned.
  if (bundling.status === 'rejected') {
    if (serving.status === 'fulfilled') await serving.value.stop();
    removeRunFolders();
    throw bundling.reason;
  }
  if (serving.status === 'rejected') {
    removeRunFolders();
    throw serving.reason;
  }
  const server = serving.value;
  console.error(
    `[suite] server and bundle ready in ${((Date.now() - started) / 1000).toFixed(1)} s; running the files`,
  );
  project.provide('temporalAddress', server.address);
  project.provide('temporalNamespace', server.namespace);
  project.provide('workflowBundlePath', bundling.value.codePath);
  return async () => {
    await server.stop();
    removeRunFolders();
  };
}
