// Waits for a run's return value. `run.returnValue` polls the world once a second, which would
// add up to a second to every measured run; this reads the same run record (world.runs.get)
// every few milliseconds instead, then takes the value from `returnValue` once it is there.
import { setTimeout as sleep } from 'node:timers/promises';
import { getRun } from 'workflow/api';
import { getWorld } from 'workflow/runtime';

const POLL_MS = 5;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** @returns {Promise<any>} the workflow's return value (throws if the run failed). */
export async function waitForReturnValue(runId, { timeoutMs = 30 * 60_000 } = {}) {
  const world = getWorld();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await world.runs.get(runId, { resolveData: 'none' });
    if (TERMINAL.has(run.status)) return getRun(runId).returnValue;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status} after ${timeoutMs} ms`);
    await sleep(POLL_MS);
  }
}
