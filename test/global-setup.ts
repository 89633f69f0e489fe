import path from 'node:path';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { cachedWorkflowBundle } from '../src/cli/setup/cached-workflow-bundle';
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
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
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
    throw bundling.reason;
  }
  if (serving.status === 'rejected') throw serving.reason;
  const server = serving.value;
  console.error(
    `[suite] server and bundle ready in ${((Date.now() - started) / 1000).toFixed(1)} s; running the files`,
  );
  project.provide('temporalAddress', server.address);
  project.provide('temporalNamespace', server.namespace);
  project.provide('workflowBundlePath', bundling.value.codePath);
  return () => server.stop();
}
