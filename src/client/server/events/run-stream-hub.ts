import { RunStream, type RunStreamDeps, type StreamListener } from './run-stream';

/**
 * The server's watched runs: one `RunStream` per run with at least one watcher, made when the
 * first joins and closed when the last leaves; and the count of watchers, held under a cap.
 */
export class RunStreamHub {
  private readonly streams = new Map<string, RunStream>();
  private watchers = 0;
  /** Streams closed when their last watcher left, until their Temporal calls settle. */
  private readonly draining = new Set<Promise<void>>();

  constructor(
    private readonly deps: RunStreamDeps,
    private readonly maxWatchers: number,
  ) {}

  get watcherCount(): number {
    return this.watchers;
  }

  get runCount(): number {
    return this.streams.size;
  }

  hasRoom(): boolean {
    return this.watchers < this.maxWatchers;
  }

  /** Attaches the listener `make` builds for the run's stream (made now if the run had none). */
  join<L extends StreamListener>(workflowId: string, make: (stream: RunStream) => L): { stream: RunStream; listener: L } {
    let stream = this.streams.get(workflowId);
    if (!stream) {
      stream = new RunStream(workflowId, this.deps);
      this.streams.set(workflowId, stream);
    }
    const listener = make(stream);
    stream.attach(listener);
    this.watchers += 1;
    return { stream, listener };
  }

  leave(stream: RunStream, listener: StreamListener): void {
    const before = stream.size;
    stream.detach(listener);
    if (stream.size === before) return;
    this.watchers -= 1;
    if (stream.size === 0 && this.streams.get(stream.workflowId) === stream) {
      this.streams.delete(stream.workflowId);
      this.drain(stream);
    }
  }

  /** Closes every stream; resolves once none has a Temporal call under way. */
  async close(): Promise<void> {
    for (const stream of this.streams.values()) this.drain(stream);
    this.streams.clear();
    this.watchers = 0;
    await Promise.all([...this.draining]);
  }

  private drain(stream: RunStream): void {
    const closing = stream.close();
    this.draining.add(closing);
    void closing.then(() => this.draining.delete(closing));
  }
}
