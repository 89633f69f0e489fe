import type { AgentClient } from '../../client/agent-client';
import { createDropLog } from '../../events/drop-log';
import type { EventBus } from '../../events/event-bus';
import type { RunEvent } from '../../domain/run/run-event';
import type { ChainStore } from '../../store/chain-store';
import { BoundedRunSet } from './bounded-run-set';
import { createCatchUpQueue, type CatchUpKind } from './catch-up-queue';
import { readRunFromTemporal, readStartingRun, ActionCounter } from './read-run-from-temporal';
import { createRunLanes } from './run-lanes';
import { writeTemporalRun } from './write-temporal-run';
import { behindWhileUnsettled } from './behind-while-unsettled';
import { withinDeadline } from './within-deadline';
import { listAgentRuns, sinceQuery, RUNNING_QUERY } from './list-agent-runs';
import { markGoneRuns, namespaceRetentionMs } from './mark-gone-runs';
import { counted } from '../../domain/text/counted';
import { isImportRunId } from '../../domain/store/import-run-id';

export interface ChainStoreProjectionOptions {
  store: ChainStore;
  agents: AgentClient;
  bus: EventBus;
  /** Where trouble is reported, at most once a minute per kind. Default stderr. */
  log?: (line: string) => void;
  /** Days the store keeps an ended run (THOUGHTLINE_STORE_RETENTION_DAYS); checked hourly. Default 400. */
  retentionDays?: number;
  /** How often runs closed since the last sweep are looked for (a lost `end` event). Default 60 s. */
  sweepEveryMs?: number;
  /** How often a database that failed is asked again. Default 3 s. */
  pingEveryMs?: number;
  /**
   * On start, runs closed since the store's last write are checked (it may have missed them), but
   * never more than this long ago (`store rebuild` covers the rest). Default 1 day.
   */
  startLookbackMs?: number;
  /** Catch-ups at once, in each pool (runs events named; runs sweeps listed). Default 4. */
  concurrency?: number;
  /** How long one catch-up may wait for Temporal (a running run's query waits for a worker). Default 30 s. */
  readDeadlineMs?: number;
}

export interface ChainStoreProjectionStats {
  /** `chain` queries sent (Temporal actions): one per catch-up of a run that had not completed. */
  queries: number;
  /** Runs waiting for the database to come back. */
  dirty: number;
  databaseDown: boolean;
  /** Catch-ups waiting or running. */
  catchingUp: number;
}

export interface ChainStoreProjection {
  /** Subscribes to every run's events and sweeps once (runs running now, runs closed lately). */
  start(): Promise<void>;
  /** Queues a catch-up of one run from Temporal. */
  catchUp(runId: string): void;
  /** Resolves when no event and no catch-up is being handled (for tests and `store` shutdown). */
  idle(): Promise<void>;
  stats(): ChainStoreProjectionStats;
  /** `chain` queries sent for one run (kept for the latest 1,000 runs queried). */
  queriesOf(runId: string): number;
  /**
   * The store as this server's readers should see it: a run whose events this projection has
   * received but not yet written (or whose catch-up waits or runs) reads as behind, so a read
   * made just after an event (the `end` a watcher saw) goes to Temporal, never to a stale row.
   */
  readable(): ChainStore;
  close(): Promise<void>;
}

/** How far back a sweep looks before its last one: visibility lists a closed run a little after it closes. */
const SWEEP_OVERLAP_MS = 120_000;
const HOUR_MS = 3_600_000;

/**
 * Keeps the chain store complete and exact: the projection `serve` and `thoughtline store` run.
 * Run events write steps as they come (no Temporal call for a run whose events all arrive); a
 * gap, a run first heard of mid-way, an `end`, a restart, a bus or database that comes back, and
 * a minute's sweep of closed runs are caught up from Temporal. It never throws out of its
 * listener and never slows a run: it lives in the server, and a failed write only marks the run
 * to catch up when the database answers again.
 */
export function createChainStoreProjection(options: ChainStoreProjectionOptions): ChainStoreProjection {
  const { store, agents, bus } = options;
  const trouble = createDropLog('chain store', options.log);
  const counter = new ActionCounter();
  const lanes = createRunLanes();
  const dirty = new BoundedRunSet();
  const timers: NodeJS.Timeout[] = [];
  let down: { since: number; timer: NodeJS.Timeout } | undefined;
  let lastSweep = Date.now() - (options.startLookbackMs ?? 24 * HOUR_MS);
  let unsubscribe: (() => void) | undefined;
  let closed = false;

  /** A failure: the database's (it stops answering) marks the run dirty until it is back; Temporal's is retried by the next sweep. */
  const failed = async (runId: string, err: unknown): Promise<void> => {
    dirty.add(runId);
    if (down) return;
    try {
      await store.ping();
      trouble.note(`catching up run ${runId} failed (retried within a minute): ${(err as Error).message}`);
    } catch (cause) {
      databaseDown(cause);
    }
  };

  const databaseDown = (cause: unknown): void => {
    if (down || closed) return;
    trouble.note(
      `the store (${store.where}) does not answer; runs go on, catch-up follows: ${(cause as Error).message}`,
    );
    const timer = setInterval(() => void pingAgain(), options.pingEveryMs ?? 3_000);
    timer.unref();
    down = { since: Date.now(), timer };
  };

  const pingAgain = async (): Promise<void> => {
    if (!down) return;
    try {
      await store.ping();
    } catch {
      return;
    }
    const since = down.since;
    clearInterval(down.timer);
    down = undefined;
    options.log?.(`[chain store] ${store.where} answers again; catching up ${counted(dirty.size, 'run')}`);
    for (const runId of dirty.take().ids) queue.add(runId);
    void sweep(since - SWEEP_OVERLAP_MS);
  };

  /** Runs whose `end` event came and whose catch-up has not started: it waits for their close. */
  const ending = new Set<string>();

  /**
   * A sweep never queries a running run (a query is an action, and waits for a worker that may be
   * gone): it marks the run behind, so reads go to Temporal, and the run's next event (proof of a
   * live worker) or its close catches it up.
   */
  const catchUpNow = async (runId: string, kind: CatchUpKind): Promise<void> => {
    const ended = ending.delete(runId);
    if (down) return dirty.add(runId);
    try {
      const stored = await store.run(runId);
      if (stored?.complete) return;
      // Queued by an event while an earlier catch-up ran, which may have stored every step the
      // events announced by now: a run not behind needs no query (an action) until its end.
      if (kind === 'urgent' && !ended && stored && stored.behindSince === undefined) return;
      const read = await withinDeadline(
        readRunFromTemporal(agents, runId, stored?.lastStep ?? 0, counter, ended, kind === 'urgent'),
        options.readDeadlineMs ?? 30_000,
        `Temporal did not answer for run ${runId} in time (a query needs a worker polling its task queue)`,
      );
      if (read.kind === 'gone') {
        if (stored && !stored.temporalGone) await store.markTemporalGone(runId);
        return;
      }
      if (read.kind === 'running') {
        if (!(await storedRun(runId))) return;
        if (!stored?.behindSince) await store.markBehind(runId, true);
        return;
      }
      await writeTemporalRun(store, read, stored);
    } catch (err) {
      await failed(runId, err);
    }
  };
  const queue = createCatchUpQueue({
    lanes,
    catchUp: catchUpNow,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
  });
  const enqueue = (runId: string, kind: CatchUpKind = 'sweep'): void => {
    // The imports' id space is never written from Temporal (a workflow given such an id by hand is not projected).
    if (isImportRunId(runId)) return;
    if (!queue.add(runId, kind)) dirty.add(runId);
  };
  /** A run an event said is behind: caught up before any run a sweep listed. */
  const urgent = (runId: string): void => enqueue(runId, 'urgent');

  /** The run's row, put from its input and description (no query) when the store has not seen it. */
  const storedRun = async (runId: string) => {
    const stored = await store.run(runId);
    if (stored) return stored;
    const starting = await readStartingRun(agents, runId);
    if (starting.kind !== 'found') return undefined;
    await store.putRun(starting.update);
    return store.run(runId);
  };

  const handle = async (event: RunEvent): Promise<void> => {
    const runId = event.runId;
    if (down) return dirty.add(runId);
    try {
      if (event.type === 'end' && event.outcome !== 'continued') {
        if (ending.size < 10_000) ending.add(runId);
        return urgent(runId);
      }
      const stored = await storedRun(runId);
      if (!stored || stored.complete) return;
      if (event.type === 'step') {
        const number = event.step.stepNumber;
        if (number <= stored.lastStep) return;
        // Only the next step is written from an event: steps are stored without holes.
        if (number === stored.lastStep + 1 && stored.behindSince === undefined)
          return await store.putSteps(runId, [event.step]);
        await store.noteProgress(runId, event.chainStatus, number);
        return urgent(runId);
      }
      if (event.type === 'status' || event.type === 'end') {
        await store.noteProgress(runId, event.chainStatus, event.stepNumber);
        if (event.stepNumber > stored.lastStep || stored.behindSince !== undefined) urgent(runId);
        return;
      }
      if (event.type === 'approval' || event.type === 'sub_agent') {
        const current = await store.head(runId);
        if (!current) return;
        // The status the latest event said, not the head's as first stored.
        const head = { ...current.head, status: current.run.chainStatus };
        if (event.type === 'approval') {
          const others = (head.approvals ?? []).filter((a) => a.callId !== event.approval.callId);
          head.approvals = [...others, event.approval];
        } else {
          const subAgents = [...(head.subAgents ?? [])];
          const at = subAgents.findIndex((s) => s.workflowId === event.subAgent.workflowId);
          if (at >= 0) subAgents[at] = event.subAgent;
          else subAgents.push(event.subAgent);
          head.subAgents = subAgents;
        }
        const run = current.run;
        await store.putRun({
          runId,
          head,
          state: run.state,
          ...(run.terminationReason ? { terminationReason: run.terminationReason } : {}),
          ...(run.endedAt ? { endedAt: run.endedAt } : {}),
          ...(run.parentRunId ? { parentRunId: run.parentRunId } : {}),
          rootRunId: run.rootRunId,
          complete: run.complete,
        });
      }
    } catch (err) {
      await failed(runId, err);
    }
  };

  const onEvent = (event: RunEvent): void => {
    // Live only, never stored: model text as it streams and tools' progress.
    if (closed || event.type === 'text_delta' || event.type === 'tool_progress' || isImportRunId(event.runId)) return;
    void lanes.run(event.runId, () => handle(event)).catch(() => undefined);
  };

  /** Queues runs running now, runs closed since `closedSince`, and the store's incomplete runs. */
  const sweep = async (closedSince: number): Promise<void> => {
    if (closed || down) return;
    const started = Date.now();
    try {
      for (const query of [RUNNING_QUERY, sinceQuery(new Date(closedSince))])
        for await (const runId of listAgentRuns(agents, query)) enqueue(runId);
      let after: string | undefined;
      for (;;) {
        const page = await store.runIds({ incompleteOnly: true, limit: 500, ...(after ? { afterRunId: after } : {}) });
        for (const runId of page) enqueue(runId);
        if (page.length < 500) break;
        after = page.at(-1);
      }
      lastSweep = started;
    } catch (err) {
      trouble.note(`a sweep failed (tried again within a minute): ${(err as Error).message}`);
      await store.ping().catch((cause: unknown) => databaseDown(cause));
    }
  };

  /** The minute's sweep: runs closed since the last one (lost `end` events), and runs whose catch-up failed. */
  const tick = async (): Promise<void> => {
    if (closed || down) return;
    for (const runId of dirty.take().ids) queue.add(runId);
    const since = lastSweep - SWEEP_OVERLAP_MS;
    const started = Date.now();
    try {
      for await (const runId of listAgentRuns(agents, sinceQuery(new Date(since)))) enqueue(runId);
      lastSweep = started;
    } catch (err) {
      trouble.note(`the minute's sweep failed: ${(err as Error).message}`);
    }
  };

  /**
   * The hour's pass: runs past the store's own retention are deleted, and runs past Temporal's
   * (an hour's margin) are marked temporalGone once Temporal says it no longer has them.
   */
  const retention = async (): Promise<void> => {
    if (closed || down) return;
    const days = options.retentionDays ?? 400;
    try {
      const temporalMs = await namespaceRetentionMs(agents);
      if (temporalMs !== undefined)
        await markGoneRuns(store, agents, new Date(Date.now() - temporalMs + HOUR_MS).toISOString());
      const deleted = await store.deleteEndedBefore(new Date(Date.now() - days * 24 * HOUR_MS).toISOString());
      if (deleted > 0)
        options.log?.(`[chain store] deleted ${counted(deleted, 'run')} ended more than ${days} days ago`);
    } catch (err) {
      trouble.note(`retention failed: ${(err as Error).message}`);
    }
  };

  return {
    async start() {
      unsubscribe = bus.subscribeAll(onEvent, () => void sweep(lastSweep - SWEEP_OVERLAP_MS));
      const every = (ms: number, work: () => Promise<void>): void => {
        const timer = setInterval(() => void work(), ms);
        timer.unref();
        timers.push(timer);
      };
      every(options.sweepEveryMs ?? 60_000, tick);
      every(HOUR_MS, retention);
      try {
        await store.ping();
      } catch (err) {
        return databaseDown(err);
      }
      // Resume from the store's last write. A store that holds nothing starts from now: it fills
      // from events, and `store rebuild` backfills what came before (a sweep would read every run).
      const last = await store.lastWrite().catch(() => undefined);
      lastSweep = last === undefined ? Date.now() : Math.max(Date.parse(last) - SWEEP_OVERLAP_MS, lastSweep);
      if (last !== undefined) await sweep(lastSweep);
      void retention();
    },
    catchUp: urgent,
    queriesOf: (runId) => counter.queriesOf(runId),
    readable: () =>
      behindWhileUnsettled(store, (runId) => lanes.busy(runId) || queue.waits(runId) || ending.has(runId)),
    async idle() {
      for (let i = 0; i < 100; i++) {
        await lanes.idle();
        await queue.idle();
        await lanes.idle();
        if (queue.size() === 0) return;
      }
    },
    stats: () => ({
      queries: counter.queries,
      dirty: dirty.size,
      databaseDown: down !== undefined,
      catchingUp: queue.size(),
    }),
    async close() {
      closed = true;
      unsubscribe?.();
      for (const timer of timers) clearInterval(timer);
      if (down) clearInterval(down.timer);
      await Promise.race([lanes.idle(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
      trouble.flush();
    },
  };
}
