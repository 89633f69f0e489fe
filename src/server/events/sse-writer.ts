import type { ServerResponse } from 'node:http';

export interface SseWriterOptions {
  /** A `: ping` comment this often keeps proxies from closing an idle stream. */
  pingMs: number;
  /** Bytes a watcher may leave unread (in Node's buffers) before it is dropped. */
  maxBufferedBytes: number;
  /** How long a full socket may take to drain before its watcher is dropped. */
  drainTimeoutMs: number;
}

/** What a watcher writes its events to: an SSE response, or a followed sub-agent's place in its parent's stream. */
export type EventWriter = Pick<SseWriter, 'closed' | 'backedUp' | 'drained' | 'event' | 'close'>;

/**
 * One Server-Sent Events response, written straight to the socket after Fastify let go of it.
 * Its watcher waits for `drained()` while the client is behind, so one slow client holds only
 * its own queue; a client that leaves more than the bound unread, or does not drain in time, is
 * dropped (its socket destroyed): bounded memory, and nobody else waits on it.
 */
export class SseWriter {
  private ping: NodeJS.Timeout | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  private done = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: SseWriterOptions,
    /** Called once, when the stream ends for any reason (client gone, dropped, closed). */
    private readonly onClose: (reason: string) => void,
  ) {}

  open(): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders();
    this.res.socket?.setNoDelay(true);
    this.res.on('close', () => this.finish('client closed'));
    this.ping = setInterval(() => this.write(': ping\n\n'), this.options.pingMs);
    this.ping.unref();
  }

  get closed(): boolean {
    return this.done;
  }

  /** Bytes written but not yet taken by the client's socket. */
  get buffered(): number {
    return this.res.writableLength + (this.res.socket?.writableLength ?? 0);
  }

  event(type: string, id: string, data: unknown): void {
    this.write(`event: ${type}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends the stream normally (after the `end` event, or at server shutdown). */
  close(): void {
    if (this.done) return;
    this.res.end();
    this.finish('closed');
  }

  /** True while the client has not taken what was written: the watcher waits for `drained()`. */
  get backedUp(): boolean {
    return !this.done && this.res.writableNeedDrain;
  }

  /** Resolves when the socket drained or the stream ended. */
  drained(): Promise<void> {
    if (!this.backedUp) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }

  private write(chunk: string): void {
    if (this.done) return;
    if (this.res.write(chunk)) return;
    if (this.buffered > this.options.maxBufferedBytes)
      return this.drop(`more than ${this.options.maxBufferedBytes} bytes unread`);
    if (this.drainTimer) return;
    this.drainTimer = setTimeout(
      () => this.drop(`not drained within ${this.options.drainTimeoutMs} ms`),
      this.options.drainTimeoutMs,
    );
    this.drainTimer.unref();
    this.res.once('drain', () => {
      clearTimeout(this.drainTimer);
      this.drainTimer = undefined;
    });
  }

  private drop(reason: string): void {
    this.res.socket?.destroy();
    this.res.destroy();
    this.finish(`dropped: ${reason}`);
  }

  private finish(reason: string): void {
    if (this.done) return;
    this.done = true;
    clearInterval(this.ping);
    clearTimeout(this.drainTimer);
    this.onClose(reason);
  }
}
