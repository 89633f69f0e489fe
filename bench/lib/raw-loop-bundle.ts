import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { quietLogger } from './bench-context';

/** The bare loop's workflow bundle written to `dir`, for a worker in another process; returns its path. */
export async function writeRawLoopBundle(dir: string): Promise<string> {
  const bundlePath = path.join(dir, `bench-raw-bundle-${process.pid}.js`);
  const { code } = await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'raw-loop-workflow.js'), logger: quietLogger });
  fs.writeFileSync(bundlePath, code);
  return bundlePath;
}
