import type { ToolDefinition } from '../../tools/define-tool';
import type { WorkerDeployment } from '../../deployment';
import { startWorker, type Connected, type RunningWorker } from './runtime';

/** How a standing worker (`worker`, `serve --with-worker`, `mcp-server --with-worker`) is versioned. */
export interface Versioning {
  /** No Worker Deployment Version: the worker takes runs of any code (only without versioned workers on its queue). */
  unversioned?: boolean;
  /** Declare the version but leave it to `set-current-version` to route new runs to it. */
  keepCurrent?: boolean;
}

/** A standing worker's deployment: THOUGHTLINE_DEPLOYMENT_NAME, by default named after the task queue. */
export function standingDeployment(name: string, versioning: Versioning): WorkerDeployment | undefined {
  return versioning.unversioned ? undefined : { name, makeCurrent: !versioning.keepCurrent };
}

/**
 * A worker on the configured task queue, hosted the one way `thoughtline worker` hosts it: every
 * door that runs a worker there (`worker`, `serve --with-worker`, `mcp-server --with-worker`,
 * `run` when the queue's worker has stopped) comes through here. By default it declares its Worker
 * Deployment Version and makes it current before it polls, so it takes the runs started on the
 * queue whatever versions the queue has seen; an unversioned worker there would never get them once
 * a versioned one has been current. A run's private queue (`run`, `demo`, `eval`) has never been
 * in a deployment: its worker is started with startWorker, unversioned.
 */
export function startStandingWorker(
  connected: Connected,
  extraTools: readonly ToolDefinition[],
  options: Omit<NonNullable<Parameters<typeof startWorker>[2]>, 'deployment'> & { versioning?: Versioning } = {},
): Promise<RunningWorker> {
  const { versioning = {}, ...rest } = options;
  const deployment = standingDeployment(connected.config.deploymentName, versioning);
  return startWorker(connected, extraTools, { ...rest, ...(deployment ? { deployment } : {}) });
}
