import type { EventBus } from './event-bus';
import { INGEST_PATH, MAX_INGEST_BYTES, MAX_INGEST_EVENTS } from './ingest-limits';
import { createDropLog, type DropLog } from './drop-log';

export interface HttpPublisherOptions {
  /** The server's origin, e.g. `http://server:8080`; events go to `<url>/v1/internal/events`. */
  url: string;
  /** A bearer token whose identity has role `publisher`. */
  token: string;
  /** Where drops and failures are reported, at most once a minute each. Default: stderr. */
  log?: (line: string) => void;
  /** Events waiting to be sent (the batch in flight not counted). Default 10,000. */
  maxQueuedEvents?: number;
  /** Bytes of JSON waiting to be sent. Default 16 MiB. */
  maxQueuedBytes?: number;
  /** Per batch; at most the route's limits. Default 1,000 events and 1 MiB. */
  maxBatchEvents?: number;
  maxBatchBytes?: number;
  /** Wait after the first failed request, doubling up to `maxRetryMs`. Default 100 ms and 5 s. */
  initialRetryMs?: number;
  maxRetryMs?: number;
  /** One request's deadline. Default 10 s. */
  requestTimeoutMs?: number;
}

/** What the publisher holds now; for tests and health checks. */
export interface HttpPublisherStats {
  queuedEvents: number;
  queuedBytes: number;
  inFlight: number;
  sent: number;
  dropped: number;
}

export interface HttpPublisher extends EventBus {
  stats(): HttpPublisherStats;
  /** Sends what is queued, waiting at most `deadlineMs` (default 5 s), then stops; later events are dropped. */
  close(deadlineMs?: number): Promise<void>;
}

interface Queued {
  json: string;
  bytes: number;
  delta: boolean;
}

/**
 * The publish side of the bus for a worker in another process than the server: events are
 * queued and posted in batches (JSON arrays) with one request in flight; what arrives meanwhile
 * goes in the next batch. The queue is bounded by count and bytes: when full, text deltas go
 * first, then the oldest events (the server catches steps up from the durable chain). Requests
 * that fail are retried with backoff; a batch the server refuses as malformed is dropped.
 * `publish` never blocks or throws.
 */
export function createHttpPublisher(options: HttpPublisherOptions): HttpPublisher {
  const endpoint = new URL(INGEST_PATH, options.url).toString();
  const maxQueuedEvents = options.maxQueuedEvents ?? 10_000;
  const maxQueuedBytes = options.maxQueuedBytes ?? 16 * 1024 * 1024;
  const maxBatchEvents = Math.min(options.maxBatchEvents ?? MAX_INGEST_EVENTS, MAX_INGEST_EVENTS);
  const maxBatchBytes = Math.min(options.maxBatchBytes ?? 1024 * 1024, MAX_INGEST_BYTES);
  const initialRetryMs = options.initialRetryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  const drops: DropLog = createDropLog('http publisher', options.log);

  let queue: Queued[] = [];
  let queuedBytes = 0;
  let inFlight: Queued[] = [];
  let sent = 0;
  let retryMs = 0;
  let timer: NodeJS.Timeout | undefined;
  let scheduled = false;
  let closed = false;
  let stopped = false;
  const abort = new AbortController();
  const idleWaiters = new Set<() => void>();

  /** Drops one event to make room: the oldest text delta, else the oldest event. */
  const evictOne = (): void => {
    const at = queue.findIndex((q) => q.delta);
    const [gone] = queue.splice(at >= 0 ? at : 0, 1);
    if (!gone) return;
    queuedBytes -= gone.bytes;
    drops.drop(1, gone.delta ? 'text delta (queue full)' : 'event (queue full)');
  };
  const enforceBounds = (): void => {
    while (queue.length > 0 && (queue.length > maxQueuedEvents || queuedBytes > maxQueuedBytes)) evictOne();
  };

  const takeBatch = (): { items: Queued[]; body: string } => {
    const items: Queued[] = [];
    let bytes = 2;
    while (queue.length > 0 && items.length < maxBatchEvents) {
      const next = queue[0]!;
      if (items.length > 0 && bytes + next.bytes + 1 > maxBatchBytes) break;
      items.push(queue.shift()!);
      queuedBytes -= next.bytes;
      bytes += next.bytes + 1;
    }
    return { items, body: `[${items.map((q) => q.json).join(',')}]` };
  };

  const settleIdle = (): void => {
    if (queue.length > 0 || inFlight.length > 0) return;
    for (const resolve of idleWaiters) resolve();
    idleWaiters.clear();
  };

  const schedule = (delayMs: number): void => {
    if (stopped || scheduled || inFlight.length > 0) return;
    scheduled = true;
    const run = () => {
      scheduled = false;
      timer = undefined;
      void pump();
    };
    // The first send waits one microtask only, so the events of one activation travel together.
    if (delayMs === 0) queueMicrotask(run);
    else timer = setTimeout(run, delayMs);
  };

  const pump = async (): Promise<void> => {
    if (stopped || inFlight.length > 0 || queue.length === 0) return settleIdle();
    const { items, body } = takeBatch();
    inFlight = items;
    const outcome = await post(body);
    inFlight = [];
    if (outcome === 'ok') {
      sent += items.length;
      retryMs = 0;
    } else if (outcome === 'refused') {
      drops.drop(items.length, 'events (the server refused the batch)');
      retryMs = 0;
    } else {
      // Back in front, in order; the bound then makes room the usual way.
      queue = [...items, ...queue];
      queuedBytes += items.reduce((sum, q) => sum + q.bytes, 0);
      enforceBounds();
      retryMs = Math.min(maxRetryMs, retryMs === 0 ? initialRetryMs : retryMs * 2);
    }
    if (queue.length === 0) return settleIdle();
    schedule(outcome === 'retry' ? retryMs : 0);
  };

  const post = async (body: string): Promise<'ok' | 'refused' | 'retry'> => {
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
        body,
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(requestTimeoutMs)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return 'ok';
      // 400/413/422: this batch will never be taken; anything else (401, 403, 429, 5xx) may pass later.
      if (response.status === 400 || response.status === 413 || response.status === 422) return 'refused';
      drops.note(`server answered ${response.status}; retrying`);
      return 'retry';
    } catch (err) {
      drops.note(`cannot reach ${endpoint} (${(err as Error).message}); retrying`);
      return 'retry';
    }
  };

  return {
    publish(event) {
      if (closed) return drops.drop(1, 'event (publisher closed)');
      let json: string;
      try {
        json = JSON.stringify(event);
      } catch {
        return drops.drop(1, 'event (not JSON)');
      }
      const bytes = Buffer.byteLength(json);
      if (bytes + 2 > maxBatchBytes) return drops.drop(1, `event of ${bytes} bytes (over the batch limit)`);
      queue.push({ json, bytes, delta: event.type === 'text_delta' || event.type === 'tool_progress' });
      queuedBytes += bytes;
      enforceBounds();
      schedule(retryMs);
    },
    subscribe() {
      throw new Error('The HTTP publisher only publishes: subscribe on the server, which receives these events.');
    },
    subscribeAll() {
      throw new Error('The HTTP publisher only publishes: subscribe on the server, which receives these events.');
    },
    stats() {
      return { queuedEvents: queue.length, queuedBytes, inFlight: inFlight.length, sent, dropped: drops.total() };
    },
    async close(deadlineMs = 5_000) {
      closed = true;
      if (queue.length > 0 || inFlight.length > 0) {
        // Retry at once instead of after the backoff; the deadline bounds the wait.
        if (timer) {
          clearTimeout(timer);
          timer = undefined;
          scheduled = false;
          retryMs = Math.min(retryMs, initialRetryMs);
          schedule(0);
        }
        let deadline: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => idleWaiters.add(resolve)),
          new Promise<void>((resolve) => (deadline = setTimeout(resolve, deadlineMs))),
        ]);
        clearTimeout(deadline);
      }
      stopped = true;
      if (timer) clearTimeout(timer);
      abort.abort();
      const left = queue.length + inFlight.length;
      if (left > 0) drops.drop(left, 'events (not sent before the close deadline)');
      queue = [];
      queuedBytes = 0;
      drops.flush();
    },
  };
}
