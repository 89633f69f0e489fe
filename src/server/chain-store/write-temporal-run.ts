import type { StoredRun } from '../../domain/store';
import type { ChainStore } from '../../store/chain-store';
import type { TemporalRun } from './read-run-from-temporal';

/** Steps per `putSteps` call: one write stays small whatever the chain's length. */
const STEPS_PER_WRITE = 500;

/**
 * Writes what Temporal holds of a run over what the store has (`stored`, or undefined for a run
 * it has not seen): the row first when new (so its steps have a run), then the steps, then the
 * row again with its state (and `complete` only now, after every step is in), and clears `behind`.
 * Every write is an idempotent upsert: a repeat, or another server writing the same run, is harmless.
 */
export async function writeTemporalRun(
  store: ChainStore,
  read: Extract<TemporalRun, { kind: 'found' }>,
  stored: StoredRun | undefined,
): Promise<void> {
  const { update, steps } = read;
  if (!stored) await store.putRun({ ...update, complete: false });
  for (let i = 0; i < steps.length; i += STEPS_PER_WRITE)
    await store.putSteps(update.runId, steps.slice(i, i + STEPS_PER_WRITE));
  await store.putRun(update);
  if (stored?.behindSince) await store.markBehind(update.runId, false);
}
