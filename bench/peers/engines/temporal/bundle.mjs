import { writeFile } from 'node:fs/promises';
import { bundleWorkflowCode } from '@temporalio/worker';

/**
 * Bundles an engine's workflow code once, to a file its worker processes load: a replacement
 * worker then starts in the time a production one would (Temporal advises prebuilt bundles),
 * not in webpack's time. Plugins and bundlerOptions take part, as they do when a worker bundles
 * for itself.
 */
export async function bundleToFile({ workerModule, config, file }) {
  const { workerOptions } = await import(workerModule);
  const { workflowsPath, plugins, bundlerOptions } = workerOptions(config);
  const { code } = await bundleWorkflowCode({ workflowsPath, plugins, ...bundlerOptions });
  await writeFile(file, code);
  return file;
}
