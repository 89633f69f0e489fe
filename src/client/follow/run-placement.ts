import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { NoWorkerError } from './no-worker-error';
import { startWorkerCommand } from './worker-advice';
import { workerPolls, workflowPollers } from './worker-presence';

/**
 * Where a `run` goes: to this process's own worker, on a task queue of its own (so no standing
 * worker can take any of its tasks, and its sub-agents, which inherit the queue, stay with it),
 * or to the workers already polling the configured queue. Never both.
 */
export type RunPlacement =
  | {
      worker: 'own';
      taskQueue: string;
      /** Workers on the configured queue passed over because `isForeign` said they run other code. */
      passedOver?: string[];
    }
  | { worker: 'standing'; taskQueue: string };

export interface PlacementWish {
  /** `--no-worker`: the standing workers, and fail fast when there are none. */
  standingOnly: boolean;
  /** This process's worker even when one polls the queue (`--record`, the demo). */
  ownOnly: boolean;
  /**
   * A poller (by identity) whose code is not this process's, e.g. another checkout's CLI worker:
   * while one polls the queue, a run there could land on it, so the run goes to this process's own.
   */
  isForeign?: (identity: string) => boolean;
}

/** The embedded worker's queue: the configured one's name, `-run-` and 8 random hex digits. */
export const privateTaskQueue = (configuredQueue: string): string =>
  `${configuredQueue}-run-${randomUUID().slice(0, 8)}`;

/**
 * Chooses where a run goes; by default, to a worker already polling `configuredQueue` (it has the
 * tools a person started it with) and else to this process's own. Throws NoWorkerError for
 * `standingOnly` when no worker polls the queue within the grace.
 */
export async function placeRun(client: Client, configuredQueue: string, wish: PlacementWish): Promise<RunPlacement> {
  if (wish.ownOnly) return { worker: 'own', taskQueue: privateTaskQueue(configuredQueue) };
  if (wish.standingOnly) {
    if (await workerPolls(client, configuredQueue)) return { worker: 'standing', taskQueue: configuredQueue };
    throw new NoWorkerError(
      `no worker polls task queue "${configuredQueue}", so a run started there would wait with nothing to advance it; nothing was started.\n` +
        `Start one in another terminal:\n  ${startWorkerCommand(configuredQueue, configuredQueue)}\nor drop --no-worker to run one in this process.`,
      configuredQueue,
    );
  }
  const polling = await workflowPollers(client, configuredQueue);
  const foreign = wish.isForeign ? polling.filter(wish.isForeign) : [];
  if (foreign.length > 0)
    return { worker: 'own', taskQueue: privateTaskQueue(configuredQueue), passedOver: [...new Set(foreign)] };
  return polling.length > 0
    ? { worker: 'standing', taskQueue: configuredQueue }
    : { worker: 'own', taskQueue: privateTaskQueue(configuredQueue) };
}
