import type { ApiContext } from '../../api-route';
import type { Identity } from '../../auth/identity';
import { ApiError } from '../../api-error';
import type { RunStreamHub } from '../../events/run-stream-hub';
import { RunNotReadyError, type StreamListener, type StreamSignal } from '../../events/run-stream';
import type { RunFacts } from '../../run-access';
import { snapshotOf, type RunSnapshot } from './run-snapshot';
import { isTerminal, statusOf } from './task-of-snapshot';

/** What tells two snapshots apart for a watcher: the state, and the message it carries (step, call). */
export const snapshotKey = (snapshot: RunSnapshot): string => {
  const status = statusOf(snapshot);
  return `${status.state}\u0000${status.message?.messageId ?? ''}`;
};

/** Wakes the follower on whatever the run's stream says, except the model's text and tools' progress as they stream. */
class Wake implements StreamListener {
  pending = true;
  ended = false;
  private resolve: (() => void) | undefined;

  signal(signal: StreamSignal): void {
    if (signal.kind === 'event' && (signal.event.type === 'text_delta' || signal.event.type === 'tool_progress'))
      return;
    if (signal.kind === 'ended') this.ended = true;
    this.pending = true;
    this.resolve?.();
  }

  /** Resolves at the next signal (at once if one came since the last call), or when `abort` fires. */
  next(abort: AbortSignal): Promise<void> {
    if (this.pending || abort.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.resolve = undefined;
        abort.removeEventListener('abort', done);
        resolve();
      };
      this.resolve = done;
      abort.addEventListener('abort', done, { once: true });
    });
  }
}

/**
 * The run's snapshot now, then each time it changes (a step, an approval or question opening or
 * closing, the end), until it ends or `abort` fires. Driven by the server's durable event stream:
 * the bus's events, and the hub's safety net when events are lost; a status is read only when the
 * stream says something happened, and that read is shared with every other watcher of the run.
 * Works from any server instance: the first snapshot is read from Temporal, not from memory.
 * With `as` (a door acting after the request, such as a push follower), each snapshot is read as
 * the person it resolves then, so their current roles decide the view; it rejects when they are gone.
 */
export async function* followRun(
  ctx: ApiContext,
  hub: RunStreamHub,
  identity: Identity,
  runId: string,
  abort: AbortSignal,
  as?: () => Promise<Identity>,
): AsyncGenerator<RunSnapshot, void, undefined> {
  let facts: RunFacts = await ctx.accessRun(identity, runId);
  const owner = { id: identity.id, ...(identity.tenant ? { tenant: identity.tenant } : {}) };
  const full = hub.fullFor(owner);
  if (full)
    throw new ApiError(
      full === 'server' ? 'unavailable' : 'too_many_requests',
      `Too many open A2A streams (${full}); close one, or poll with GetTask.`,
    );
  const wake = new Wake();
  const { stream, listener } = hub.join(runId, owner, () => wake);
  let lastKey: string | undefined;
  let awaitedClose = false;
  try {
    while (!abort.aborted) {
      await wake.next(abort);
      if (abort.aborted) return;
      wake.pending = false;
      if (wake.ended && (facts.state === 'running' || facts.state === 'continued'))
        facts = await ctx.accessRun(identity, runId);
      const since = stream.now;
      // Outside the try: a person who is gone ends the follow, not a read to retry.
      const reader = as ? await as() : identity;
      let snapshot: RunSnapshot;
      try {
        snapshot = await snapshotOf(ctx, reader, facts, (view) =>
          stream.statusInView(view, since).catch((err: unknown) => {
            if (err instanceof RunNotReadyError) return undefined;
            throw err;
          }),
        );
      } catch (err) {
        if (lastKey === undefined) throw err;
        // A status read can fail as the run ends: read it again at once if it has ended, else at
        // the stream's next signal.
        facts = await ctx.accessRun(identity, runId);
        if (facts.state !== 'running') wake.pending = true;
        continue;
      }
      const key = snapshotKey(snapshot);
      if (key !== lastKey) {
        lastKey = key;
        yield snapshot;
      }
      if (isTerminal(statusOf(snapshot).state)) return;
      // The run's end event can come before Temporal closes it (the worker publishes it from the
      // last workflow task): then no later signal comes. Wait for the close once (a long poll, no
      // polling loop), and read again.
      if (wake.ended && !awaitedClose) {
        awaitedClose = true;
        await untilClosed(ctx, runId, abort);
        facts = await ctx.accessRun(identity, runId);
        wake.pending = true;
      }
    }
  } finally {
    hub.leave(stream, listener);
  }
}

/** Resolves when the run has closed (whatever its outcome) or `abort` fires. */
async function untilClosed(ctx: ApiContext, runId: string, abort: AbortSignal): Promise<void> {
  if (abort.aborted) return;
  let stop: () => void = () => {};
  const aborted = new Promise<void>((resolve) => {
    stop = () => resolve();
    abort.addEventListener('abort', stop, { once: true });
  });
  try {
    await Promise.race([
      ctx.agents
        .getHandle(runId)
        .result()
        .then(
          () => undefined,
          () => undefined,
        ),
      aborted,
    ]);
  } finally {
    abort.removeEventListener('abort', stop);
  }
}
