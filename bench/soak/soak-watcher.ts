/**
 * A live watcher of one run over SSE that survives its server, as a browser's EventSource behind
 * a load balancer does: when a stream breaks before the run's `end`, it reconnects to the next
 * server with `Last-Event-ID`. It keeps only step numbers and a few times, so fifty of them
 * following runs for an hour hold almost nothing.
 */
export interface SoakWatch {
  readonly runId: string;
  /** Step numbers in the order received, repeats included. */
  readonly steps: number[];
  /** performance.now() at the first step received, if it came live. */
  firstStepAt?: number;
  endedAt?: number;
  /** The `end` event's outcome (`completed`, `cancelled`, …), as the server said. */
  ending?: string;
  reconnects: number;
  /** The watcher gave up: no server answered within its patience. */
  failure?: string;
  readonly done: Promise<void>;
  close(): void;
}

interface Servers {
  readonly serves: ReadonlyArray<{ url: string }>;
}

async function* sseEvents(
  url: string,
  token: string,
  lastEventId: string | undefined,
  signal: AbortSignal,
): AsyncGenerator<{ event: string; id: string; data: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const response = await fetch(url, { headers, signal });
  if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    await response.body?.cancel();
    throw new Error(`answered ${response.status}`);
  }
  const { createParser } = await import('eventsource-parser');
  const queue: Array<{ event: string; id: string; data: string }> = [];
  const parser = createParser({
    onEvent: (m) => queue.push({ event: m.event ?? 'message', id: m.id ?? '', data: m.data }),
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    while (queue.length > 0) yield queue.shift()!;
  }
}

export function watchRun(servers: Servers, runId: string, token: string, giveUpMs = 300_000): SoakWatch {
  const abort = new AbortController();
  let lastEventId: string | undefined;
  const watch: SoakWatch = {
    runId,
    steps: [],
    reconnects: 0,
    done: Promise.resolve(),
    close: () => abort.abort(),
  };
  const follow = async (): Promise<void> => {
    let brokeAt = performance.now();
    for (let i = Math.floor(Math.random() * 2); !abort.signal.aborted; i += 1) {
      const serve = servers.serves[i % servers.serves.length]!;
      try {
        const url = `${serve.url}/v1/runs/${encodeURIComponent(runId)}/events`;
        for await (const m of sseEvents(url, token, lastEventId, abort.signal)) {
          brokeAt = performance.now();
          if (m.id !== '') lastEventId = m.id;
          if (m.event === 'step') {
            watch.steps.push((JSON.parse(m.data) as { stepNumber: number }).stepNumber);
            watch.firstStepAt ??= performance.now();
          } else if (m.event === 'end') {
            watch.ending = (JSON.parse(m.data) as { outcome?: string }).outcome ?? 'unknown';
            watch.endedAt = performance.now();
            return;
          }
        }
      } catch (err) {
        if (abort.signal.aborted) return;
        if (performance.now() - brokeAt > giveUpMs) {
          watch.failure = `no server answered for ${Math.round(giveUpMs / 1_000)} s: ${String(err)}`;
          return;
        }
      }
      watch.reconnects += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  Object.assign(watch, { done: follow() });
  return watch;
}
