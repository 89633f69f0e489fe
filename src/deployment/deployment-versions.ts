import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { currentBuildId } from './current-build';
import { pollersByBuildId } from './version-pollers';

const Status = temporal.api.enums.v1.WorkerDeploymentVersionStatus;

/** One version of a deployment, as `thoughtline versions` lists it. */
export interface DeploymentVersionSummary {
  buildId: string;
  /** current, ramping, draining (pinned runs still open), drained, inactive. */
  status: string;
  createdAt: string | undefined;
  currentSince: string | undefined;
  /** Workers of this build polling the deployment's task queue now (0: none; its runs wait for one). */
  pollers: number;
}

const STATUS_TEXT: Record<number, string> = {
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_INACTIVE]: 'inactive',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT]: 'current',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING]: 'ramping',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING]: 'draining',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINED]: 'drained',
};

const time = (t: { seconds?: unknown } | null | undefined): string | undefined =>
  t?.seconds === undefined || t.seconds === null ? undefined : new Date(Number(t.seconds) * 1000).toISOString();

/**
 * The versions of deployment `name`, newest first, with their pollers on `taskQueue` (default: the
 * deployment's name, as Thoughtline names deployments); an empty list when it has none yet.
 */
export async function listVersions(
  client: Client,
  name: string,
  taskQueue: string = name,
): Promise<DeploymentVersionSummary[]> {
  let info;
  try {
    info = (
      await client.workflowService.describeWorkerDeployment({
        namespace: client.options.namespace,
        deploymentName: name,
      })
    ).workerDeploymentInfo;
  } catch (err) {
    if ((err as { code?: number }).code === 5) return []; // NOT_FOUND: no worker of it has run yet
    throw err;
  }
  const pollers = await pollersByBuildId(client, name, taskQueue);
  return (info?.versionSummaries ?? [])
    .map((v) => ({
      buildId: v.deploymentVersion?.buildId ?? '',
      status: STATUS_TEXT[v.status ?? 0] ?? 'unknown',
      createdAt: time(v.createTime),
      currentSince: time(v.currentSinceTime),
      pollers: pollers.get(v.deploymentVersion?.buildId ?? '') ?? 0,
    }))
    .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
}

/**
 * Makes `buildId` the current version of deployment `name` (null: unversioned workers), so it
 * takes every new run; runs already pinned to another version stay there. `beforePolling` lets a
 * worker make its own version current before it polls: Temporal would refuse a version with no
 * pollers yet, or one not yet seen on the task queues of the current version.
 */
export async function setCurrentVersion(
  client: Client,
  name: string,
  buildId: string | null,
  options: { beforePolling?: boolean } = {},
): Promise<void> {
  const set = () =>
    client.workflowService.setWorkerDeploymentCurrentVersion({
      namespace: client.options.namespace,
      deploymentName: name,
      buildId: buildId ?? '',
      identity: 'thoughtline',
      ...(options.beforePolling ? { allowNoPollers: true, ignoreMissingTaskQueues: true } : {}),
    });
  // Replicas of one build start together, and each makes its version current. The server runs
  // these calls through the deployment's own workflow, and one made at the same moment as another
  // can fail there ("MultiOperation could not be executed: Update failed", seen with two workers
  // started at once): tried again, and done when another caller has made the build current.
  for (let attempt = 1; ; attempt++) {
    try {
      await set();
      return;
    } catch (err) {
      if (buildId !== null && (await currentBuildId(client, name).catch(() => undefined)) === buildId) return;
      if (attempt >= SET_ATTEMPTS || !TRANSIENT_CODES.has((err as { code?: number }).code ?? -1)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** (attempt - 1)));
    }
  }
}

/** 250 ms, 0.5, 1 and 2 s apart: about 4 s in all before the last error is the caller's. */
const SET_ATTEMPTS = 5;
/**
 * gRPC codes of a call that may succeed when made again: UNKNOWN, DEADLINE_EXCEEDED,
 * RESOURCE_EXHAUSTED, ABORTED, INTERNAL, UNAVAILABLE. Any other refusal is the caller's at once.
 */
const TRANSIENT_CODES: ReadonlySet<number> = new Set([2, 4, 8, 10, 13, 14]);
