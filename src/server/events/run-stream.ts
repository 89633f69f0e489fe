import type { AgentStatus, ChainStatus, ReasoningChain, ReasoningStep, ViewerRole } from '../../domain';
import { IncrementalChainView } from '../../domain/chain/chain-view';
import type { RunEvent } from '../../domain/run/run-event';
import type { EventBus } from '../../events/event-bus';
import { statusQuery } from '../../workflows/messages';
import type { AgentClient } from '../../client/agent-client';
import { isDeadline } from '../../client/follow/query-deadline';
import { runStateOf } from '../run-access';
import { readEnding, type EndingRead } from '../../client/ending/read-ending';
import type { LiveModelCall } from '../policy/live-text-in-lens';
import { isQueryBufferFull } from '../../connection/query-buffer-retry';
import { QueryGate } from './query-gate';

export type EndOutcome = Extract<RunEvent, { type: 'end' }>['outcome'];

/**
 * What a run's stream tells its watchers, each with the stream's sequence number at the time, so
 * a watcher that then reads the durable chain knows a read started later includes it.
 */
export type StreamSignal =
  /** A raw step, in order: the stream's facts cover every step before it. */
  | { kind: 'step'; step: ReasoningStep; chainStatus: ChainStatus; seq: number }
  /** Any other published event (status, approval, sub_agent, text_delta, tool_progress), raw. */
  | { kind: 'event'; event: Exclude<RunEvent, { type: 'step' | 'end' }>; seq: number }
  /** The run has at least `upTo` steps: a watcher behind that reads what it misses from the chain. */
  | { kind: 'steps-exist'; upTo: number; seq: number }
  /** The run's state changed without an event saying so: a watcher sends a fresh `status`. */
  | { kind: 'status-changed'; seq: number }
  | { kind: 'ended'; outcome: EndOutcome; seq: number };

export interface StreamListener {
  signal(signal: StreamSignal): void;
}

export interface RunStreamDeps {
  agents: AgentClient;
  bus: EventBus;
  /** How often the safety net looks at the run while anyone watches. */
  safetyPollMs: number;
  /** A Temporal read that takes longer is given up (and retried by the next tick). */
  readTimeoutMs: number;
}

/** Tool calls a stream remembers while they run (parallel calls of one turn, sub-agents' included). */
const MAX_OPEN_TOOL_CALLS = 64;

/** Raw steps held while the steps before them are read; more means a sync is due anyway. */
const MAX_HELD_STEPS = 1_000;

/**
 * A Temporal run's first events are its start and its first workflow task's scheduling and start;
 * a fourth means that task has ended. Until then the run has recorded no step, and Temporal holds
 * a query for it until that task ends.
 */
const EVENTS_BEFORE_FIRST_TASK_ENDS = 3;
/** How often a stream refused a read looks again whether the run's first task has ended, and for how long at most. */
const READINESS_POLL_MS = 50;
const READINESS_WATCH_MS = 60_000;

/** A read refused because the run's first workflow task has not ended: it has nothing to read yet. */
export class RunNotReadyError extends Error {
  override readonly name = 'RunNotReadyError';
}

/**
 * One watched run, shared by all its watchers: one bus subscription; the facts that put a raw
 * step through a view (kept complete: a step after a gap waits until the chain fills the gap);
 * and a safety net that, while anyone watches, describes the run about once a second and reads
 * the cheap `status` query when its history moved, so steps and the end reach watchers even when
 * no worker publishes or an event is lost. Reads of the durable chain and status are shared by
 * watchers of the same view, and its queries go to Temporal one at a time (QueryGate): two at once
 * during a workflow task overflow the server's buffer of one, and the refused one came 1.4-2 s late.
 */
export class RunStream {
  readonly viewer = new IncrementalChainView();
  /** The run's latest model call step seen: what its live text becomes is decided by it. */
  modelCall: LiveModelCall | undefined;
  /** Tool call steps without a result yet, by step id: a tool's progress is shown as its call step is. */
  readonly openToolCalls = new Map<string, ReasoningStep>();
  ended: EndOutcome | undefined;
  private ending: Promise<EndingRead | undefined> | undefined;
  private seq = 0;
  /** Every raw step up to this one is in `viewer`. */
  private factsHigh = 0;
  private readonly held = new Map<number, { step: ReasoningStep; chainStatus: ChainStatus }>();
  private syncing: Promise<void> | undefined;
  private syncAgain = false;
  private readonly listeners = new Set<StreamListener>();
  private readonly unsubscribe: () => void;
  private readonly timer: NodeJS.Timeout;
  private polling = false;
  private lastHistoryLength = -1;
  private lastStatusKey: string | undefined;
  private dirty = true;
  /** Shared reads by key, with the sequence number when each began: infinite while it waits at the gate (it will see all so far). */
  private readonly reads = new Map<string, { started: { seq: number }; promise: Promise<unknown> }>();
  private readonly queries = new QueryGate();
  private closed = false;
  /** Temporal calls not yet settled, gRPC retries included: `close()` waits for them. */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** The Temporal run seen past its first workflow task: reads query it without asking first. */
  private readyRunId: string | undefined;
  /** Set while the stream looks every READINESS_POLL_MS whether a refused read may now go. */
  private watchingReadiness = false;

  constructor(
    readonly workflowId: string,
    private readonly deps: RunStreamDeps,
  ) {
    this.unsubscribe = deps.bus.subscribe(workflowId, (event) => this.onEvent(event));
    void this.syncFacts();
    this.timer = setInterval(() => void this.tick(), deps.safetyPollMs);
    this.timer.unref();
  }

  get size(): number {
    return this.listeners.size;
  }

  /** The sequence number of the latest signal that a read of the chain or status could reflect. */
  get now(): number {
    return this.seq;
  }

  attach(listener: StreamListener): void {
    this.listeners.add(listener);
    this.dirty = true;
  }

  detach(listener: StreamListener): void {
    this.listeners.delete(listener);
  }

  /**
   * Stops watching and starts no more Temporal calls; resolves once those under way have settled
   * (each within `readTimeoutMs`). A caller may then close the Temporal connection: a call still
   * queued on a closed connection is retried by the client on a timer, which then throws.
   */
  close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    clearInterval(this.timer);
    this.listeners.clear();
    return Promise.allSettled([...this.inFlight]).then(() => undefined);
  }

  /** The durable chain in a view, from a read that started at or after signal `since`. */
  chainInView(view: ViewerRole, since: number): Promise<ReasoningChain> {
    return this.sharedRead(`chain:${view}`, since, () => this.deps.agents.chain(this.workflowId, view));
  }

  /**
   * How the run ended, raw (each watcher views it): read once for all watchers, after the end
   * (the result waits for Temporal to record the close). Rejects when it cannot be read in time.
   */
  endingRead(): Promise<EndingRead | undefined> {
    const state = this.ended;
    if (state === undefined) return Promise.reject(new Error(`${this.workflowId} has not ended`));
    this.ending ??= this.temporal(`reading the ending of ${this.workflowId}`, () =>
      readEnding(this.deps.agents, this.workflowId, state),
    );
    return this.ending;
  }

  /** The `status` record in a view, from a read that started at or after signal `since`. */
  statusInView(view: ViewerRole, since: number): Promise<AgentStatus> {
    return this.sharedRead(`status:${view}`, since, () => this.deps.agents.status(this.workflowId, view));
  }

  /** Queries Temporal through the gate: none is sent before the stream's previous one is answered. */
  private query<T>(what: string, read: () => Promise<T>): Promise<T> {
    return this.queries.run(() => this.temporal(what, read));
  }

  private sharedRead<T>(key: string, since: number, read: () => Promise<T>): Promise<T> {
    const current = this.reads.get(key);
    if (current && current.started.seq >= since) return current.promise as Promise<T>;
    const started = { seq: Infinity };
    const promise = this.query(`reading ${key} of ${this.workflowId}`, () => {
      started.seq = this.seq;
      return this.whenReadable().then(read);
    });
    const entry = { started, promise };
    this.reads.set(key, entry);
    const forget = (): void => {
      if (this.reads.get(key) === entry) this.reads.delete(key);
    };
    entry.promise.then(forget, forget);
    return entry.promise;
  }

  /**
   * Resolves once the run has something to read; rejects at once (RunNotReadyError) while its
   * first workflow task has not ended, rather than send a query Temporal would hold. A watcher
   * that joins a run just started then goes live at once, and catches up when watchReadiness
   * says the task has ended.
   */
  private async whenReadable(): Promise<void> {
    if (this.readyRunId !== undefined) return;
    const described = await this.deps.agents.getHandle(this.workflowId).describe();
    if (this.notedReadiness(described)) return;
    void this.watchReadiness();
    throw new RunNotReadyError(`${this.workflowId} has not finished its first workflow task`);
  }

  /**
   * After a refused read: looks again shortly, and once the run can be read tells every watcher
   * to catch up (the steps so far, then a fresh status), as the safety net would a second later.
   * One watch at a time; it stops when the stream closes or ends, or after READINESS_WATCH_MS.
   */
  private async watchReadiness(): Promise<void> {
    if (this.watchingReadiness) return;
    this.watchingReadiness = true;
    try {
      for (const until = Date.now() + READINESS_WATCH_MS; Date.now() < until && !this.closed && !this.ended;) {
        await new Promise((resolve) => setTimeout(resolve, READINESS_POLL_MS).unref());
        const described = await this.temporal('describe', () =>
          this.deps.agents.getHandle(this.workflowId).describe(),
        ).catch(() => undefined);
        if (!described || !this.notedReadiness(described) || this.closed) continue;
        void this.syncFacts();
        this.broadcast({ kind: 'steps-exist', upTo: Number.MAX_SAFE_INTEGER });
        this.broadcast({ kind: 'status-changed' });
        return;
      }
    } finally {
      this.watchingReadiness = false;
    }
  }

  /** Whether the described run is past its first workflow task (or closed); remembers it for the next reads. */
  private notedReadiness(described: { runId: string; historyLength: number; status: { name: string } }): boolean {
    const ready =
      runStateOf(described.status.name) !== 'running' || described.historyLength > EVENTS_BEFORE_FIRST_TASK_ENDS;
    // A run that continued as new starts again with a first task of its own.
    this.readyRunId = ready ? described.runId : undefined;
    return ready;
  }

  /**
   * One read of the run from Temporal, under a gRPC deadline so the call itself ends (not only
   * our wait for it), and tracked until it settles. Refused once the stream is closed.
   */
  private temporal<T>(what: string, read: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`${what}: the stream is closed`));
    const ms = this.deps.readTimeoutMs;
    const call = this.deps.agents.client.connection.withDeadline(Date.now() + ms, read).catch((err: unknown) => {
      if (isDeadline(err)) throw new Error(`${what} took longer than ${ms} ms`, { cause: err });
      if (isQueryBufferFull(causeOf(err)))
        throw new Error(
          `${what}: Temporal refused the query after its client's retries, because the run already had as many queries waiting for its workflow task as the server holds (history.MaxBufferedQueryCount); the safety net reads again`,
          { cause: err },
        );
      throw err;
    });
    this.inFlight.add(call);
    const settle = (): void => void this.inFlight.delete(call);
    call.then(settle, settle);
    return call;
  }

  private broadcast(
    signal: StreamSignal extends infer S ? (S extends StreamSignal ? Omit<S, 'seq'> : never) : never,
  ): void {
    // Text deltas never change what a read of the chain or status returns: they do not advance
    // the sequence, so watchers that join while text streams share one catch-up read.
    const delta =
      signal.kind === 'event' && (signal.event.type === 'text_delta' || signal.event.type === 'tool_progress');
    const stamped = { ...signal, seq: delta ? this.seq : ++this.seq } as StreamSignal;
    for (const listener of this.listeners) listener.signal(stamped);
  }

  private onEvent(event: RunEvent): void {
    if (this.ended) return;
    switch (event.type) {
      case 'step':
        return this.onStep(event.step, event.chainStatus);
      case 'end':
        // Continue-as-new goes on under the same workflow id: the stream stays open.
        if (event.outcome === 'continued') return;
        return this.end(event.outcome);
      case 'approval':
        this.viewer.addApproval(event.approval);
        return this.broadcast({ kind: 'event', event });
      default:
        return this.broadcast({ kind: 'event', event });
    }
  }

  private onStep(step: ReasoningStep, chainStatus: ChainStatus): void {
    const n = step.stepNumber;
    if (n <= this.factsHigh) return this.broadcast({ kind: 'step', step, chainStatus });
    if (n === this.factsHigh + 1) {
      this.addFact(step);
      this.factsHigh = n;
      this.broadcast({ kind: 'step', step, chainStatus });
      return this.releaseHeld();
    }
    if (this.held.size >= MAX_HELD_STEPS) this.held.clear();
    this.held.set(n, { step, chainStatus });
    void this.syncFacts();
  }

  /** A step joins the facts in order; a model call step is remembered for the live text that follows it. */
  private addFact(step: ReasoningStep): void {
    this.viewer.add(step);
    this.trackToolCall(step);
    // The run's own model calls (ask_model's llm steps are tool calls, without a toolChoice).
    if (step.type === 'tool_call' && step.toolCall.toolType === 'llm' && 'toolChoice' in step.toolCall.arguments)
      this.modelCall = {
        correlationId: step.toolCall.correlationId,
        model: step.model ?? step.toolCall.toolName,
        level: step.visibility.level,
      };
  }

  /** Keeps open tool calls (at most MAX_OPEN_TOOL_CALLS, the oldest forgotten first) until their result. */
  private trackToolCall(step: ReasoningStep): void {
    if (step.type === 'tool_call') {
      this.openToolCalls.set(step.stepId, step);
      if (this.openToolCalls.size > MAX_OPEN_TOOL_CALLS)
        this.openToolCalls.delete(this.openToolCalls.keys().next().value!);
    }
    if (step.type === 'tool_result')
      for (const [id, call] of this.openToolCalls)
        if (call.type === 'tool_call' && call.toolCall.correlationId === step.toolResult.correlationId)
          this.openToolCalls.delete(id);
  }

  private releaseHeld(): void {
    for (const n of [...this.held.keys()].sort((a, b) => a - b)) {
      if (n > this.factsHigh + 1) break;
      const { step, chainStatus } = this.held.get(n)!;
      this.held.delete(n);
      if (n === this.factsHigh + 1) {
        this.addFact(step);
        this.factsHigh = n;
      }
      this.broadcast({ kind: 'step', step, chainStatus });
    }
  }

  /**
   * Adds the steps the facts miss from the auditor's view of the chain (every step; only
   * secret-shaped text redacted), then releases held steps. One read at a time; a call during a
   * read makes one more afterwards.
   */
  private syncFacts(): Promise<void> {
    if (this.syncing) {
      this.syncAgain = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      do {
        this.syncAgain = false;
        try {
          const chain = await this.chainInView('auditor', this.seq);
          for (const step of chain.steps) {
            if (step.stepNumber !== this.factsHigh + 1) continue;
            this.addFact(step);
            this.factsHigh = step.stepNumber;
          }
          for (const record of chain.approvals ?? []) this.viewer.addApproval(record);
        } catch {
          // Not readable yet (no workflow task ran, worker busy): the safety net tries again.
          this.dirty = true;
        }
        this.releaseHeld();
      } while (this.syncAgain && !this.ended && !this.closed);
    })().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  private end(outcome: EndOutcome): void {
    if (this.ended) return;
    this.ended = outcome;
    clearInterval(this.timer);
    this.broadcast({ kind: 'ended', outcome });
  }

  /** The safety net: skipped while the previous tick still waits, and while nobody watches. */
  private async tick(): Promise<void> {
    if (this.polling || this.ended || this.closed || this.listeners.size === 0) return;
    this.polling = true;
    try {
      const handle = this.deps.agents.getHandle(this.workflowId);
      const described = await this.temporal('describe', () => handle.describe());
      const state = runStateOf(described.status.name);
      if (state !== 'running') return this.end(state);
      if (!this.notedReadiness(described)) return;
      if (!this.dirty && described.historyLength === this.lastHistoryLength) return;
      this.dirty = true;
      const status = await this.query('status query', () => handle.query(statusQuery, 'auditor'));
      this.dirty = false;
      this.lastHistoryLength = described.historyLength;
      if (status.steps > this.factsHigh) void this.syncFacts();
      this.broadcast({ kind: 'steps-exist', upTo: status.steps });
      const key = JSON.stringify([
        status.status,
        status.waitingFor,
        status.openQuestion?.callId,
        status.pendingApprovals.map((r) => [r.callId, r.status]),
        status.subAgents.map((s) => [s.callId, s.status]),
        status.plan,
      ]);
      if (this.lastStatusKey !== undefined && key !== this.lastStatusKey) this.broadcast({ kind: 'status-changed' });
      this.lastStatusKey = key;
    } catch {
      // The run cannot be read now (not started, no worker for the query): try again next tick.
    } finally {
      this.polling = false;
    }
  }
}

/** The gRPC status under a Temporal client error (the client wraps a refused query once). */
function causeOf(err: unknown): { code?: number; details?: string; message?: string } {
  const outer = err as { code?: number; details?: string; message?: string; cause?: unknown } | undefined;
  if (outer?.code !== undefined) return outer;
  return (outer?.cause as { code?: number; details?: string } | undefined) ?? {};
}
