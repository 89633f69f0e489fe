import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { WORKFLOW_BUNDLER_OPTIONS, WORKFLOWS_PATH } from '../src/worker';
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
 * The server is a dev server of its own, or the one THOUGHTLINE_TEST_TEMPORAL_ADDRESS names.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  // The run's first lines: the files' own lines follow once the server and the bundle are ready.
  console.error('[suite] starting the Temporal dev server and bundling the workflow code (once for the run)…');
  const dir = path.resolve(__dirname, '../.thoughtline/tmp');
  fs.mkdirSync(dir, { recursive: true });
  const bundlePath = path.join(dir, `workflow-bundle-${process.pid}.js`);
  // Side by side: the server mostly waits on its own process while the bundler computes.
  const [serving, bundling] = await Promise.allSettled([
    startSuiteServer((line) => console.error(`[temporal] ${line}`)),
    bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, ...WORKFLOW_BUNDLER_OPTIONS, logger: quietLogger }),
  ]);
  // A server started for a bundle that failed is stopped, not orphaned.
  if (bundling.status === 'rejected') {
    if (serving.status === 'fulfilled') await serving.value.stop();
    throw bundling.reason;
  }
  if (serving.status === 'rejected') throw serving.reason;
  const server = serving.value;
  fs.writeFileSync(bundlePath, bundling.value.code);
  console.error(
    `[suite] server and bundle ready in ${((Date.now() - started) / 1000).toFixed(1)} s; running the files`,
  );
  project.provide('temporalAddress', server.address);
  project.provide('temporalNamespace', server.namespace);
  project.provide('workflowBundlePath', bundlePath);
  return async () => {
    await server.stop();
    fs.rmSync(bundlePath, { force: true });
  };
}

const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };
