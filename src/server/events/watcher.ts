import type { ChainStatus, ReasoningStep, SubAgentRun, SubAgentStepEvent, ViewerRole } from '../../domain';
import type { ViewLens } from '../../domain/visibility';
import type { RunEnding } from '../../domain/run/run-ending';
import { chainInLens, statusInLens, subAgentInLens } from '../policy/apply-lens';
import { endingInView } from '../../client/ending/read-ending';
import type { RunStream, StreamListener, StreamSignal } from './run-stream';
import type { EventWriter } from './sse-writer';
import { LiveText, type TextDelta } from './live-text';
import { toolProgressInView, type ToolProgressRunEvent } from '../policy/tool-progress-in-view';

/** What a watcher tells the stream's sub-agent following (child-follow.ts, which makes watchers: hence no import). */
export interface ChildFollowing {
  /** A sub-agent this run shows as it runs or ends. */
  noted(sub: SubAgentRun, path: readonly string[]): void;
  /** Resolves when the children followed sent their last steps (or waited long enough). */
  settled(): Promise<void>;
}

/** Raw steps one watcher holds while the durable chain fills the gap before them. */
const MAX_HELD_STEPS = 200;

/**
 * One SSE connection. It joins its run's stream (and queues what arrives) before reading the
 * durable chain, sends every step after the client's resume point from that chain, then a
 * `status` event, then what it queued and what comes live (a run whose first workflow task has
 * not ended cannot be read yet: then it goes live at once, and its stream says when to catch up).
 * `cursor` is the last step number such that every step up to it was sent or is not in this
 * view: a step is sent only as cursor + 1, a later one waits while the chain fills the gap, an
 * earlier one is a repeat and is dropped. So no step is sent twice or skipped, even when the bus
 * loses or repeats events. Events other than steps get the id `<cursor>.<seq>`; model text is
 * sent as it arrives, never behind a read of the chain. Its queue is bounded: on overflow it
 * throws the queue away and catches up from the chain (deltas lost, no step).
 */
export class Watcher implements StreamListener {
  private cursor: number;
  private seq = 0;
  private queue: StreamSignal[] = [];
  private overflowed = false;
  private started = false;
  private running = false;
  private chainStatus: ChainStatus = 'thinking';
  private readonly held = new Map<number, { step: ReasoningStep; chainStatus: ChainStatus }>();
  /** The model's text in this watcher's view and lens: only what the steps it becomes would show. */
  private readonly live: LiveText;

  constructor(
    private readonly stream: RunStream,
    private readonly writer: EventWriter,
    private readonly view: ViewerRole,
    after: number,
    private readonly maxQueued: number,
    /** This watcher's lens (the policy and its person's preferences); the run's stream is shared, the lens is not. */
    private readonly lens?: ViewLens,
    /** False for a sub-agent's run shown as its summary: no step is sent, only status and the end. */
    private readonly sendsSteps = true,
    /** The running sub-agents this stream follows, and this run's place among them (`path` empty: the watched run). */
    private readonly children?: { following: ChildFollowing; path: readonly string[] },
  ) {
    this.cursor = after;
    this.live = new LiveText(stream.viewer, view, lens, () => stream.modelCall);
  }

  signal(signal: StreamSignal): void {
    if (this.writer.closed) return;
    if (signal.kind === 'event' && signal.event.type === 'text_delta') {
      // A sub-agent's run shown as its summary shows no text of its own.
      if (!this.sendsSteps) return;
      // Model text goes out at once, not behind a read of the chain the queue may be waiting on:
      // its id names the steps sent so far, so a resume from it is still exact.
      if (this.started && !this.overflowed && !this.writer.backedUp) return this.sendText(signal.event);
    }
    if (this.queue.length >= this.maxQueued) {
      this.queue = this.queue.filter((s) => s.kind === 'ended');
      this.overflowed = true;
    }
    this.queue.push(signal);
    this.schedule();
  }

  /** The catch-up: steps from the durable chain, then the run's status; then the queue runs. */
  async start(): Promise<void> {
    const since = this.stream.now;
    await this.fill(since);
    await this.sendStatus(since);
    // Joined a run whose end was already announced to the others: end this stream too.
    if (this.stream.ended && !this.queue.some((s) => s.kind === 'ended'))
      this.queue.push({ kind: 'ended', outcome: this.stream.ended, seq: this.stream.now });
    this.started = true;
    this.schedule();
  }

  private schedule(): void {
    if (!this.started || this.running || this.writer.closed) return;
    this.running = true;
    // After the current I/O callback: steps published together are all in the facts before any is viewed.
    setImmediate(() => void this.pump());
  }

  private async pump(): Promise<void> {
    try {
      while (!this.writer.closed && (this.overflowed || this.queue.length > 0)) {
        if (this.overflowed) {
          this.overflowed = false;
          const since = this.stream.now;
          await this.fill(since);
          await this.sendStatus(since);
          continue;
        }
        await this.handle(this.queue.shift()!);
        // A client behind on reading: wait for it (its queue fills, bounded) rather than buffer without end.
        if (this.writer.backedUp) await this.writer.drained();
      }
    } finally {
      this.running = false;
      if (this.queue.length > 0 || this.overflowed) this.schedule();
    }
  }

  private async handle(signal: StreamSignal): Promise<void> {
    switch (signal.kind) {
      case 'step': {
        // A model call's result: its reply has ended, and the text held back of it goes first.
        if (signal.step.type === 'tool_result' && signal.step.model !== undefined) this.sendText();
        const n = signal.step.stepNumber;
        if (n <= this.cursor) return;
        if (this.held.size < MAX_HELD_STEPS) this.held.set(n, { step: signal.step, chainStatus: signal.chainStatus });
        this.releaseHeld();
        if (this.held.size > 0) await this.fill(signal.seq);
        return;
      }
      case 'steps-exist':
        if (signal.upTo > this.cursor) await this.fill(signal.seq);
        return;
      case 'status-changed':
        return this.sendStatus(signal.seq);
      case 'event': {
        const { event } = signal;
        // A status, approval or sub-agent event after a step this watcher has not sent: send the step first.
        if (event.type === 'text_delta') return this.sendText(event);
        if (event.type === 'tool_progress') return this.sendProgress(event);
        if (event.stepNumber > this.cursor) await this.fill(signal.seq);
        return this.sendEvent(event);
      }
      case 'ended': {
        this.sendText();
        await this.fill(signal.seq);
        // The sub-agents followed send their last steps before this run's end.
        if (this.children?.path.length === 0) await this.children.following.settled();
        const ending = await this.ending();
        if (this.writer.closed) return;
        this.writer.event('end', this.nextId(), {
          type: 'end',
          runId: this.stream.workflowId,
          chainStatus: this.chainStatus,
          stepNumber: this.cursor,
          outcome: ending?.state ?? signal.outcome,
          ...(ending ? { ending } : {}),
        });
        return this.writer.close();
      }
    }
  }

  /** How the run ended in this watcher's view; undefined when it cannot be read in time (the end is sent without it). */
  private async ending(): Promise<RunEnding | undefined> {
    try {
      const read = await this.stream.endingRead();
      return read ? endingInView(read, this.view, this.lens, !this.sendsSteps).ending : undefined;
    } catch {
      return undefined;
    }
  }

  /** Model text in this watcher's view (see LiveText); without a delta, what replies held back (a reply ended). */
  private sendText(delta?: TextDelta): void {
    if (this.writer.closed) return;
    for (const part of delta ? this.live.take(delta) : this.live.flush())
      this.writer.event('text_delta', this.nextId(), part);
  }

  /** A tool's progress, only as far as this view and lens show its call step (toolProgressInView); never behind a read. */
  private sendProgress(event: ToolProgressRunEvent): void {
    if (!this.sendsSteps || this.writer.closed) return;
    const shown = toolProgressInView(
      this.stream.viewer,
      this.stream.openToolCalls.get(event.stepId),
      event,
      this.view,
      this.lens,
    );
    if (shown) this.writer.event('tool_progress', this.nextId(), shown);
  }

  /** A published event other than a step or model text, in this watcher's view. */
  private sendEvent(
    event: Exclude<Extract<StreamSignal, { kind: 'event' }>['event'], TextDelta | ToolProgressRunEvent>,
  ): void {
    const viewer = this.stream.viewer;
    const subAgent = event.type === 'sub_agent' ? subAgentInLens(event.subAgent, this.view, this.lens) : undefined;
    // A sub-agent the lens hides is not announced; the chain status it carried comes with the next event.
    if (event.type === 'sub_agent' && !subAgent) return;
    if (subAgent) this.children?.following.noted(subAgent, this.children.path);
    const data =
      event.type === 'approval'
        ? { ...event, approval: viewer.approval(event.approval, this.view, this.lens) }
        : event.type === 'sub_agent'
          ? { ...event, subAgent: viewer.redact(subAgent, this.view) }
          : event;
    this.chainStatus = event.chainStatus;
    this.writer.event(event.type, this.nextId(), data);
  }

  /** A followed sub-agent's step, in its own watcher's view and lens, on this (the watched run's) stream. */
  sendSubAgentStep(event: Omit<SubAgentStepEvent, 'type' | 'runId'>): void {
    if (this.writer.closed) return;
    this.writer.event('sub_agent_step', this.nextId(), {
      type: 'sub_agent_step',
      runId: this.stream.workflowId,
      ...event,
    });
  }

  private nextId(): string {
    this.seq += 1;
    return `${this.cursor}.${this.seq}`;
  }

  /** Sends held raw steps that are next in line, in this watcher's view. */
  private releaseHeld(): void {
    for (const n of [...this.held.keys()].sort((a, b) => a - b)) {
      if (n > this.cursor + 1) return;
      const { step, chainStatus } = this.held.get(n)!;
      this.held.delete(n);
      if (n <= this.cursor) continue;
      this.sendStep(n, this.sendsSteps ? this.stream.viewer.step(step, this.view, this.lens) : undefined, chainStatus);
    }
  }

  /** Sends the steps after `cursor` from a read of the chain (in this view) that began at or after signal `since`. */
  private async fill(since: number): Promise<void> {
    let chain;
    try {
      chain = await this.stream.chainInView(this.view, since);
    } catch {
      // Not readable now: the stream's safety net says when to try again.
      return;
    }
    if (this.writer.closed) return;
    // Steps this view leaves out (hidden) count too: the chain had this many in all.
    const recorded = chain.steps.length + (chain.view?.hiddenSteps ?? 0);
    const shown = this.sendsSteps ? chainInLens(chain, this.view, this.lens).steps : [];
    const byNumber = new Map(shown.map((step) => [step.stepNumber, step]));
    for (const step of chain.steps)
      if (step.stepNumber > this.cursor) this.sendStep(step.stepNumber, byNumber.get(step.stepNumber), chain.status);
    this.cursor = Math.max(this.cursor, recorded);
    this.chainStatus = chain.status;
    this.releaseHeld();
  }

  /** `viewed` undefined: a step this view leaves out; the cursor moves past it all the same. */
  private sendStep(n: number, viewed: ReasoningStep | undefined, chainStatus: ChainStatus): void {
    this.cursor = n;
    this.chainStatus = chainStatus;
    if (viewed)
      this.writer.event('step', String(n), {
        type: 'step',
        runId: this.stream.workflowId,
        chainStatus,
        stepNumber: n,
        step: viewed,
      });
  }

  private async sendStatus(since: number): Promise<void> {
    try {
      const status = statusInLens(await this.stream.statusInView(this.view, since), this.view, this.lens);
      if (this.writer.closed) return;
      for (const sub of status.subAgents) this.children?.following.noted(sub, this.children.path);
      this.chainStatus = status.status;
      this.writer.event('status', this.nextId(), {
        type: 'status',
        runId: this.stream.workflowId,
        chainStatus: status.status,
        stepNumber: this.cursor,
        status,
      });
    } catch {
      // A run whose first task has not run has no status yet; the next change sends one.
    }
  }
}
