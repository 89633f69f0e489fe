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
  const server = await startSuiteServer((line) => console.error(`[temporal] ${line}`));
  const dir = path.resolve(__dirname, '../.thoughtline/tmp');
  fs.mkdirSync(dir, { recursive: true });
  const bundlePath = path.join(dir, `workflow-bundle-${process.pid}.js`);
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...WORKFLOW_BUNDLER_OPTIONS,
    logger: quietLogger,
  });
  fs.writeFileSync(bundlePath, code);
  project.provide('temporalAddress', server.address);
  project.provide('temporalNamespace', server.namespace);
  project.provide('workflowBundlePath', bundlePath);
  return async () => {
    await server.stop();
    fs.rmSync(bundlePath, { force: true });
  };
}

const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };
