import { createSseParser, type SseMessage } from './sse-parser';
import { ThoughtlineApiError } from './thoughtline-api-error';

/** Where a followed stream is: `ended` after its last event, `failed` on an answer retrying cannot fix. */
export type StreamState = 'connecting' | 'open' | 'retrying' | 'ended' | 'failed';

export interface FollowStreamOptions {
  /** The request to make, given the last event id seen ('' at first): a resume sends it as Last-Event-ID. */
  request(lastEventId: string): { url: string; init: RequestInit };
  /** Handles one event; returns true when it was the stream's last (no reconnect after it). */
  onMessage(message: SseMessage): boolean;
  onState(state: StreamState, error?: ThoughtlineApiError): void;
  /** Largest event read, in characters; a larger one fails the stream. */
  maxEventChars: number;
  signal: AbortSignal;
}

/** Milliseconds before reconnect attempt `n` (0-based): 0.5 s doubling to 15 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(15_000, 500 * 2 ** attempt);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/**
 * Reads a Server-Sent Events stream with fetch (EventSource cannot send an Authorization header)
 * until its last event, a refusal, or `signal` aborts. A drop, a clean close before the last
 * event, a server error or no answer at all (a restarting server) is retried with backoff,
 * resuming with the last id seen, so the server resends exactly what was missed. Resolves when
 * done; never rejects.
 */
export async function followStream(options: FollowStreamOptions): Promise<void> {
  const { signal } = options;
  let lastEventId = '';
  let attempt = 0;
  while (!signal.aborted) {
    options.onState(attempt === 0 ? 'connecting' : 'retrying');
    try {
      const { url, init } = options.request(lastEventId);
      const response = await fetch(url, { ...init, signal });
      if (!response.ok) {
        const failure = await ThoughtlineApiError.of(response);
        if (!failure.retryable) return options.onState('failed', failure);
        throw failure;
      }
      if (!response.body) throw new ThoughtlineApiError(0, 'no_body', 'The stream answered without a body.');
      options.onState('open');
      attempt = 0;
      const parser = createSseParser(options.maxEventChars);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const message of parser.push(value)) {
          if (message.id) lastEventId = message.id;
          if (options.onMessage(message)) {
            await reader.cancel().catch(() => undefined);
            return options.onState('ended');
          }
        }
      }
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof Error && err.name === 'SseEventTooLargeError')
        return options.onState('failed', new ThoughtlineApiError(0, 'event_too_large', err.message));
    }
    if (signal.aborted) return;
    await sleep(reconnectDelay(attempt), signal);
    attempt += 1;
  }
}
