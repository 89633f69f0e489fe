import { fileURLToPath } from 'node:url';
import { createActivities } from './activities.mjs';

/** The bare engine's worker: its workflow file and its two activities. */
export function workerOptions(config) {
  return {
    workflowsPath: fileURLToPath(new URL('./workflow.mjs', import.meta.url)),
    activities: createActivities(config),
  };
}
