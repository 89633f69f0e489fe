import type { ViewerRole } from '../../domain';
import type { ViewLens } from '../../domain/visibility';
import { IncrementalChainView } from '../../domain/chain/chain-view';
import { runEnding, type RunEnding } from '../../domain/run/run-ending';
import type { StoredRun } from '../../domain/store';
import type { ChainStore, StoredHead } from '../../store/chain-store';
import type { AgentClient } from '../../client/agent-client';
import { endingInView, readEnding } from '../../client/ending/read-ending';
import { endingOfVisibility } from '../run-ending-read';
import type { Identity } from '../auth/identity';
import { runNotFound } from '../run-access';
import type { SseWriter } from './sse-writer';

/** Raw steps read from the store at a time while replaying. */
const BATCH = 500;

/**
 * The run's stored head when its events can be replayed from the store: it has ended, the store
 * holds it whole (complete, or the only copy left) and is not behind. Another tenant's run is the
 * same 404 as an unknown one; a store that fails answers undefined (the live stream serves).
 */
export async function endedInStore(
  store: ChainStore | undefined,
  identity: Identity,
  runId: string,
): Promise<StoredHead | undefined> {
  if (!store) return undefined;
  // The row first (no facts to parse): most streams are of running runs, which the live stream serves.
  const run = await store.run(runId).catch(() => undefined);
  if (!run || run.state === 'running' || run.behindSince !== undefined || !(run.complete || run.temporalGone))
    return undefined;
  if ((run.tenant ?? null) !== (identity.tenant ?? null)) throw runNotFound();
  return store.head(runId).catch(() => undefined);
}

/**
 * How a stored run ended, in `view` narrowed by `lens`: from its result when Temporal still has
 * it (within `timeoutMs`), else from the store's row (its state and termination reason, no answer).
 */
export async function storedEnding(
  agents: AgentClient,
  run: StoredRun,
  view: ViewerRole,
  lens: ViewLens | undefined,
  summaryOnly: boolean,
  timeoutMs: number,
): Promise<RunEnding | undefined> {
  const fromRow = run.terminationReason
    ? runEnding({ terminationReason: run.terminationReason })
    : endingOfVisibility(run.state, undefined);
  if (run.temporalGone) return fromRow;
  // The row's state is the ending's: a run with a reason is one Temporal recorded completed.
  const temporalState = run.terminationReason ? 'completed' : run.state;
  try {
    const read = await agents.client.connection.withDeadline(Date.now() + timeoutMs, () =>
      readEnding(agents, run.runId, temporalState),
    );
    return read ? endingInView(read, view, lens, summaryOnly).ending : fromRow;
  } catch {
    return fromRow;
  }
}

/**
 * Replays an ended run's steps after `after` from the store in `view` narrowed by `lens` (none
 * when `sendsSteps` is false: a sub-agent shown as its summary), then the `end` event (as a
 * live stream ends), and closes the stream. Ids are those of the live stream, so a client resumes
 * the same way. A store that fails mid-way closes the stream without `end`: the client reconnects.
 */
export async function replayFromStore(
  store: ChainStore,
  stored: StoredHead,
  writer: SseWriter,
  view: ViewerRole,
  after: number,
  lens?: ViewLens,
  sendsSteps = true,
  /** How the run ended in this view (storedEnding); the `end` event carries it. */
  ending?: () => Promise<RunEnding | undefined>,
): Promise<void> {
  const { run } = stored;
  const viewer = IncrementalChainView.fromFacts(stored.facts);
  let cursor = after;
  try {
    for (;;) {
      const steps = await store.steps(run.runId, { afterStep: cursor, limit: BATCH });
      for (const step of steps) {
        if (writer.closed) return;
        cursor = step.stepNumber;
        const viewed = sendsSteps ? viewer.step(step, view, lens) : undefined;
        if (viewed)
          writer.event('step', String(cursor), {
            type: 'step',
            runId: run.runId,
            chainStatus: run.chainStatus,
            stepNumber: cursor,
            step: viewed,
          });
      }
      if (writer.backedUp) await writer.drained();
      if (steps.length < BATCH) break;
    }
  } catch {
    return writer.close();
  }
  if (writer.closed || run.state === 'running') return;
  cursor = Math.max(cursor, run.lastStep);
  const ended = await ending?.().catch(() => undefined);
  if (writer.closed) return;
  writer.event('end', `${cursor}.1`, {
    type: 'end',
    runId: run.runId,
    chainStatus: run.chainStatus,
    stepNumber: cursor,
    outcome: ended?.state ?? run.state,
    ...(ended ? { ending: ended } : {}),
  });
  writer.close();
}
