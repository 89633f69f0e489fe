import { requireOptionalPeers } from '../packaging/optional-peers';
import { RunEvent } from '../domain/run/run-event';
import { createDropLog } from './drop-log';
import type { EventBus } from './event-bus';

type Redis = typeof import('redis');

export interface RedisBusOptions {
  /** Where drops and connection trouble are reported, at most once a minute each. Default: stderr. */
  log?: (line: string) => void;
  /** PUBLISH commands waiting for the connection; more are dropped. Default 10,000. */
  maxPendingPublishes?: number;
}

export interface RedisBus extends EventBus {
  /** Events lost so far (Redis down or slow, malformed messages); for tests and health checks. */
  stats(): { dropped: number };
}

/** The channel of one run: every server watching it subscribes there. */
export const runChannel = (workflowId: string): string => `thoughtline:run:${workflowId}`;

/** The pattern of every run's channel, for `subscribeAll`. */
const everyRunChannel = 'thoughtline:run:*';

/** Wait before reconnecting: 50 ms, doubling, at most 2 s; never gives up. */
const reconnectStrategy = (retries: number): number => Math.min(50 * 2 ** Math.min(retries, 6), 2_000);

/**
 * Redis pub/sub as the bus between many workers and many servers: `publish` sends the event's
 * JSON to `thoughtline:run:<workflowId>` without waiting; `subscribe` shares one subscriber
 * connection per bus, subscribing to a run's channel while it has listeners. Both connections
 * reconnect on their own and the subscriber resubscribes. Pub/sub keeps nothing: what is
 * published while a server is not subscribed is lost (servers catch up from the durable chain).
 * `redis` is an optional peer, required here: OptionalPeerMissingError names its install command.
 */
export function createRedisBus(url: string, options: RedisBusOptions = {}): RedisBus {
  const { createClient } = requireOptionalPeers('The Redis event bus', ['redis'], () => require('redis') as Redis);
  const drops = createDropLog('redis bus', options.log);
  const maxPending = options.maxPendingPublishes ?? 10_000;
  const socket = { reconnectStrategy, connectTimeout: 5_000 };
  const publisher = createClient({ url, socket, commandsQueueMaxLength: maxPending });
  publisher.on('error', (err: Error) => drops.note(`publisher: ${err.message}`));
  publisher.connect().catch((err: Error) => drops.note(`publisher cannot connect: ${err.message}`));

  const listeners = new Map<string, Set<(event: RunEvent) => void>>();
  const everyRun = new Set<(event: RunEvent) => void>();
  const reconnectListeners = new Set<() => void>();
  let subscriber: ReturnType<Redis['createClient']> | undefined;
  let subscriberReady: Promise<unknown> | undefined;
  let closed = false;

  const parse = (message: string): RunEvent | undefined => {
    try {
      const parsed = RunEvent.safeParse(JSON.parse(message));
      if (parsed.success) return parsed.data;
    } catch {
      // Counted below as malformed.
    }
    drops.drop(1, 'malformed messages');
    return undefined;
  };
  const callAll = (set: Iterable<(event: RunEvent) => void>, event: RunEvent): void => {
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch {
        // One broken listener must not stop delivery to the others.
      }
    }
  };
  const deliver = (message: string, channel: string): void => {
    const set = listeners.get(channel);
    if (!set?.size) return;
    const event = parse(message);
    if (event) callAll(set, event);
  };
  const deliverToAll = (message: string): void => {
    if (everyRun.size === 0) return;
    const event = parse(message);
    if (event) callAll(everyRun, event);
  };

  const subscriberClient = (): ReturnType<typeof createClient> => {
    if (subscriber) return subscriber;
    subscriber = createClient({ url, socket });
    subscriber.on('error', (err: Error) => drops.note(`subscriber: ${err.message}`));
    // 'ready' after the first means the connection came back: what was published meanwhile is lost.
    let readyBefore = false;
    subscriber.on('ready', () => {
      if (readyBefore)
        for (const listener of [...reconnectListeners]) {
          try {
            listener();
          } catch {
            // A broken reconnect listener must not stop the others.
          }
        }
      readyBefore = true;
    });
    subscriberReady = subscriber
      .connect()
      .catch((err: Error) => drops.note(`subscriber cannot connect: ${err.message}`));
    return subscriber;
  };

  return {
    publish(event) {
      if (closed) return;
      let json: string;
      try {
        json = JSON.stringify(event);
      } catch {
        return drops.drop(1, 'events (not JSON)');
      }
      // Not awaited: a slow or absent Redis costs the event, never the caller's time.
      publisher
        .publish(runChannel(event.runId), json)
        .catch(() => drops.drop(1, event.type === 'text_delta' ? 'text deltas' : 'events'));
    },
    subscribe(workflowId, listener) {
      const channel = runChannel(workflowId);
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        const client = subscriberClient();
        void subscriberReady!
          .then(() => (listeners.has(channel) && !closed ? client.subscribe(channel, deliver) : undefined))
          .catch((err: Error) => drops.note(`subscribe ${channel}: ${err.message}`));
      }
      set.add(listener);
      return () => {
        if (!set.delete(listener) || set.size > 0 || listeners.get(channel) !== set) return;
        listeners.delete(channel);
        const client = subscriber;
        if (client && !closed)
          void subscriberReady!
            .then(() => (listeners.has(channel) ? undefined : client.unsubscribe(channel)))
            .catch(() => undefined);
      };
    },
    subscribeAll(listener, onReconnect) {
      const first = everyRun.size === 0;
      everyRun.add(listener);
      if (onReconnect) reconnectListeners.add(onReconnect);
      const client = subscriberClient();
      if (first)
        void subscriberReady!
          .then(() => (everyRun.size > 0 && !closed ? client.pSubscribe(everyRunChannel, deliverToAll) : undefined))
          .catch((err: Error) => drops.note(`subscribe ${everyRunChannel}: ${err.message}`));
      return () => {
        if (onReconnect) reconnectListeners.delete(onReconnect);
        if (!everyRun.delete(listener) || everyRun.size > 0 || closed) return;
        void subscriberReady!
          .then(() => (everyRun.size > 0 ? undefined : client.pUnsubscribe(everyRunChannel)))
          .catch(() => undefined);
      };
    },
    stats: () => ({ dropped: drops.total() }),
    async close() {
      closed = true;
      listeners.clear();
      everyRun.clear();
      reconnectListeners.clear();
      await Promise.all([publisher, subscriber].map((c) => (c ? closeClient(c) : undefined)));
      drops.flush();
    },
  };
}

/** Closes politely when connected (pending publishes go out), within a second; otherwise at once. */
async function closeClient(client: {
  isReady: boolean;
  isOpen: boolean;
  close(): Promise<unknown>;
  destroy(): void;
}): Promise<void> {
  if (client.isReady) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([client.close().catch(() => undefined), new Promise((r) => (timer = setTimeout(r, 1_000)))]);
    clearTimeout(timer);
  }
  if (client.isOpen) client.destroy();
}
