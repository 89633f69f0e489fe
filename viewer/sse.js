// The run's event stream, read with fetch and a ReadableStream: EventSource cannot send an
// Authorization header. Reconnects after a drop with the last id seen (Last-Event-ID), so the
// server resends exactly the steps the page missed.
import { authHeaders, failureOf, notifyUnauthenticated } from './api.js';

/**
 * An incremental parser of the text/event-stream format (WHATWG HTML, "event stream
 * interpretation"): feed it text as it arrives; it returns the complete messages. Pure.
 */
export function createSseParser() {
  let buffer = '';
  let data = [];
  let event = '';
  let id;
  let lastEventId = '';
  let retry;

  const dispatch = (out) => {
    if (id !== undefined) lastEventId = id;
    if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n'), id: lastEventId });
    data = [];
    event = '';
    id = undefined;
  };

  const line = (text, out) => {
    if (text === '') return dispatch(out);
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\u0000')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };

  return {
    /** Messages completed by this chunk, oldest first. */
    push(chunk) {
      buffer += chunk;
      const out = [];
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (!match) break;
        // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
        if (match[0] === '\r' && match.index === buffer.length - 1) break;
        line(buffer.slice(0, match.index), out);
        buffer = buffer.slice(match.index + match[0].length);
      }
      return out;
    },
    get lastEventId() {
      return lastEventId;
    },
    get retry() {
      return retry;
    },
  };
}

/** Milliseconds to wait before reconnect attempt `n` (0-based): 0.5 s doubling to 15 s. */
export function reconnectDelay(attempt, serverRetry) {
  if (serverRetry !== undefined && attempt === 0) return serverRetry;
  return Math.min(15_000, 500 * 2 ** attempt);
}

/**
 * Follows `url` until `end` arrives or `close()` is called. Handlers: onEvent({ event, data, id }),
 * onState('connecting' | 'open' | 'retrying' | 'ended' | 'failed', detail), onFailure(ApiFailure)
 * for answers that retrying cannot fix (401, 403, 404, 503: the caller decides what to do).
 */
export function followEvents(url, { lastEventId = '', onEvent, onState = () => {}, onFailure = () => {} }) {
  const controller = new AbortController();
  let lastId = lastEventId;
  let closed = false;

  const run = async () => {
    let attempt = 0;
    let serverRetry;
    while (!closed) {
      onState(attempt === 0 ? 'connecting' : 'retrying');
      try {
        const response = await fetch(url, {
          signal: controller.signal,
          cache: 'no-store',
          headers: authHeaders({ accept: 'text/event-stream', ...(lastId ? { 'last-event-id': lastId } : {}) }),
        });
        if (!response.ok) {
          const failure = await failureOf(response);
          if (response.status === 401) notifyUnauthenticated(failure);
          // Server errors other than "not built / unavailable" may pass: retry those.
          if (response.status < 500 || response.status === 503) {
            closed = true;
            onState('failed', failure);
            onFailure(failure);
            return;
          }
          throw failure;
        }
        onState('open');
        attempt = 0;
        const parser = createSseParser();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const message of parser.push(value)) {
            if (message.id) lastId = message.id;
            onEvent(message);
            if (message.event === 'end') {
              closed = true;
              controller.abort();
              onState('ended');
              return;
            }
          }
        }
        serverRetry = parser.retry;
      } catch (err) {
        if (closed) return;
        if (err?.name === 'AbortError') return;
      }
      if (closed) return;
      const wait = reconnectDelay(attempt, serverRetry);
      attempt += 1;
      onState('retrying', { waitMs: wait });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
  void run();
  return {
    close() {
      closed = true;
      controller.abort();
    },
    get lastEventId() {
      return lastId;
    },
  };
}
