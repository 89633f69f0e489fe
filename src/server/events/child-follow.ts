import type { SubAgentRun, SubAgentStepEvent, ViewerRole } from '../../domain';
import type { ViewLens } from '../../domain/visibility';
import type { RunStreamHub, WatcherOwner } from './run-stream-hub';
import type { EventWriter } from './sse-writer';
import { Watcher, type ChildFollowing } from './watcher';

/**
 * The one gate for a child's run, as its own events stream would apply it to this caller: the
 * child's lens when the caller may see its steps; undefined when not (not theirs, or their lens
 * hides sub-agents' chains or shows them as summaries only).
 */
export type ChildGate = (workflowId: string) => Promise<{ lens: ViewLens | undefined } | undefined>;

export interface SubAgentFollowingDeps {
  hub: RunStreamHub;
  owner: WatcherOwner;
  view: ViewerRole;
  gate: ChildGate;
  /** The caller's stream: its back-pressure holds the children's watchers too. */
  out: EventWriter;
  /** Writes one child step on the caller's stream, under the watched run's id and next event id. */
  emit(event: Omit<SubAgentStepEvent, 'type' | 'runId'>): void;
  /** Sub-agents one stream follows at most, over its whole life (a refused one counts): 0 follows none. */
  maxChildren: number;
  /** Steps sent of one sub-agent at most; past it the stream stops following that child. */
  maxStepsPerChild: number;
  maxQueued: number;
}

/**
 * How long the watched run's end waits at most for the children followed to send their last
 * steps: they have ended too (a parent waits for its children), and each child's stream sees
 * that from the bus at once or from its safety net within a poll.
 */
const CHILDREN_SETTLE_MS = 3_000;

/**
 * The running sub-agents one events stream follows. Each child is watched exactly as its own
 * stream would watch it for this caller (a `Watcher` of the child's shared `RunStream`, in the
 * caller's view and the child's lens, after the child passed the gate), but its steps are
 * written on the parent's stream as `sub_agent_step` events and everything else of it is
 * dropped: the parent's own `sub_agent` events already say when it starts and ends. A child's
 * watcher notes the grandchildren it is shown, so a tree is followed down to the cap. Costs
 * nothing a watcher of the child would not: one shared RunStream per child (none more when
 * someone already watches it), and each follow counts toward the caller's stream caps.
 */
export class SubAgentFollowing implements ChildFollowing {
  private readonly followed = new Map<string, ChildWriter>();
  private closed = false;

  constructor(private readonly deps: SubAgentFollowingDeps) {}

  /** A sub-agent entry a followed run showed this caller (`path`: the runs below the watched one it came from). */
  noted(sub: SubAgentRun, path: readonly string[]): void {
    if (this.closed || sub.status !== 'running' || sub.remote || this.followed.has(sub.workflowId)) return;
    if (this.followed.size >= this.deps.maxChildren || this.deps.hub.fullFor(this.deps.owner)) return;
    const tag = {
      workflowId: sub.workflowId,
      agentName: sub.agentName,
      callId: sub.callId,
      path: [...path, sub.workflowId],
    };
    const writer = new ChildWriter(this.deps, tag);
    this.followed.set(sub.workflowId, writer);
    void this.open(writer);
  }

  /** Resolves once every child followed has sent its end (its last step), or after CHILDREN_SETTLE_MS. */
  async settled(): Promise<void> {
    const open = [...this.followed.values()].filter((writer) => !writer.closed);
    if (open.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, CHILDREN_SETTLE_MS)));
    await Promise.race([Promise.all(open.map((writer) => writer.ended)), late]);
    clearTimeout(timer);
  }

  /** Stops following every child (the caller's stream ended). */
  close(): void {
    this.closed = true;
    for (const writer of this.followed.values()) writer.close();
  }

  private async open(writer: ChildWriter): Promise<void> {
    const { workflowId, path } = writer.tag;
    const passed = await this.deps.gate(workflowId).catch(() => undefined);
    if (!passed || this.closed || writer.closed) return writer.close();
    const { hub, owner, view, maxQueued } = this.deps;
    const joined = hub.join(
      workflowId,
      owner,
      (stream) => new Watcher(stream, writer, view, 0, maxQueued, passed.lens, true, { following: this, path }),
    );
    writer.onClose(() => hub.leave(joined.stream, joined.listener));
    await joined.listener.start();
  }
}

/**
 * What a child's watcher writes to: its steps go to the caller's stream, tagged with the child;
 * its status, text, approvals and end are dropped. Closes after `maxStepsPerChild` steps.
 */
class ChildWriter implements EventWriter {
  private done = false;
  private steps = 0;
  private closers: Array<() => void> = [];
  /** Resolves when the child's watcher is done with it (its end, its cap, or the caller gone). */
  readonly ended = new Promise<void>((resolve) => this.closers.push(resolve));

  constructor(
    private readonly deps: SubAgentFollowingDeps,
    readonly tag: SubAgentStepEvent['subAgent'],
  ) {}

  get closed(): boolean {
    return this.done || this.deps.out.closed;
  }

  get backedUp(): boolean {
    return this.deps.out.backedUp;
  }

  drained(): Promise<void> {
    return this.deps.out.drained();
  }

  event(type: string, _id: string, data: unknown): void {
    if (this.closed || type !== 'step') return;
    if (this.steps >= this.deps.maxStepsPerChild) return this.close();
    this.steps += 1;
    const { chainStatus, stepNumber, step } = data as SubAgentStepEvent;
    this.deps.emit({ subAgent: this.tag, chainStatus, stepNumber, step });
  }

  onClose(close: () => void): void {
    if (this.done) return close();
    this.closers.push(close);
  }

  close(): void {
    if (this.done) return;
    this.done = true;
    for (const close of this.closers.splice(0)) close();
  }
}
