import { openEvents, type SseMessage } from '../../server/events-harness';

/**
 * An SSE client of a run that survives its server: when the stream breaks before the run's `end`,
 * it reconnects to the next server of the list with `Last-Event-ID` (the last id it received), as
 * a browser's EventSource does behind a load balancer. It keeps every message of every connection,
 * so a test can check that no step was missed or received twice.
 */
export interface ResumingWatcher {
  readonly messages: readonly SseMessage[];
  /** For each reconnect: ms from the stream breaking to the first message from the next server. */
  readonly reconnectsMs: readonly number[];
  /** Resolves once the run's `end` event has arrived; rejects when no server answers for `giveUpMs`. */
  readonly done: Promise<void>;
  close(): void;
}

export function watchWithFailover(
  servers: ReadonlyArray<{ url: string }>,
  workflowId: string,
  options: { token: string; giveUpMs?: number },
): ResumingWatcher {
  const settled: SseMessage[] = [];
  const reconnectsMs: number[] = [];
  const giveUpMs = options.giveUpMs ?? 60_000;
  let closed = false;
  let current: { close(): void; messages: SseMessage[] } | undefined;
  const messages = (): SseMessage[] => [...settled, ...(current?.messages ?? [])];
  const follow = async (): Promise<void> => {
    for (let i = 0; !closed; i += 1) {
      const lastEventId = [...settled].reverse().find((m) => m.id !== '')?.id;
      const brokeAt = i === 0 ? undefined : performance.now();
      const stream = await connect(servers, i, workflowId, options.token, lastEventId, giveUpMs);
      current = stream;
      if (brokeAt !== undefined)
        void stream
          .waitFor('a first message', () => true, giveUpMs)
          .then(
            () => reconnectsMs.push(performance.now() - brokeAt),
            () => {},
          );
      await stream.ended;
      current = undefined;
      settled.push(...stream.messages);
      if (stream.messages.some((m) => m.event === 'end')) return;
    }
  };
  return {
    get messages() {
      return messages();
    },
    reconnectsMs,
    done: follow(),
    close: () => {
      closed = true;
      current?.close();
    },
  };
}

/** A stream from servers[i], else the next one that answers, trying until `giveUpMs` has passed. */
async function connect(
  servers: ReadonlyArray<{ url: string }>,
  i: number,
  workflowId: string,
  token: string,
  lastEventId: string | undefined,
  giveUpMs: number,
): ReturnType<typeof openEvents> {
  const deadline = performance.now() + giveUpMs;
  for (let k = i; ; k += 1) {
    try {
      const stream = await openEvents(servers[k % servers.length]!, workflowId, {
        token,
        ...(lastEventId !== undefined ? { lastEventId } : {}),
      });
      if (stream.status === 200) return stream;
      throw new Error(`answered ${stream.status}: ${JSON.stringify(stream.json)}`);
    } catch (err) {
      if (performance.now() > deadline) throw new Error(`no server answered for ${workflowId}: ${String(err)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
