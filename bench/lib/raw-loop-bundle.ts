import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { quietLogger } from './bench-context';

/** The bare loop's workflow bundle (raw-loop-workflow.ts), as code. */
export async function rawLoopBundleCode(): Promise<string> {
  return (
    await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'raw-loop-workflow.js'), logger: quietLogger })
  ).code;
}

/** The same bundle written to `dir`, for a worker in another process; returns its path. */
export async function writeRawLoopBundle(dir: string): Promise<string> {
  const bundlePath = path.join(dir, `bench-raw-bundle-${process.pid}.js`);
  fs.writeFileSync(bundlePath, await rawLoopBundleCode());
  return bundlePath;
}
