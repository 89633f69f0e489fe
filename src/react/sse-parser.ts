const DATA_FIELD = 'data: ';

/** One Server-Sent Event: its type (`message` when unnamed), data and the last id seen. */
export interface SseMessage {
  event: string;
  data: string;
  id: string;
}

/** Thrown when one event (or one line) passes the parser's bound: the stream is not read further. */
export class SseEventTooLargeError extends Error {
  constructor(readonly maxEventChars: number) {
    super(`An event of the stream passed ${maxEventChars} characters; it was not read.`);
    this.name = 'SseEventTooLargeError';
  }
}

/**
 * An incremental text/event-stream parser (WHATWG HTML, "event stream interpretation"): feed text
 * as it arrives, get the complete messages. Pure and bounded: the text held for one event (its
 * partial line and data lines) never passes `maxEventChars`.
 */
export function createSseParser(maxEventChars: number) {
  let buffer = '';
  let data: string[] = [];
  let held = 0;
  let event = '';
  let id: string | undefined;
  let lastEventId = '';

  const dispatch = (out: SseMessage[]): void => {
    if (id !== undefined) lastEventId = id;
    if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n'), id: lastEventId });
    data = [];
    held = 0;
    event = '';
    id = undefined;
  };

  const line = (text: string, out: SseMessage[]): void => {
    if (text === '') return dispatch(out);
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      held += value.length + 1;
      if (held > maxEventChars) throw new SseEventTooLargeError(maxEventChars);
      data.push(value);
    } else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\u0000')) id = value;
  };

  return {
    /** Messages this chunk completed, oldest first. */
    push(chunk: string): SseMessage[] {
      buffer += chunk;
      const out: SseMessage[] = [];
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (!match) break;
        // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
        if (match[0] === '\r' && match.index === buffer.length - 1) break;
        line(buffer.slice(0, match.index), out);
        buffer = buffer.slice(match.index + match[0].length);
      }
      // The line still arriving counts as data (its `data: ` aside), so a long line is refused as it grows.
      if (held + Math.max(0, buffer.length - DATA_FIELD.length) > maxEventChars)
        throw new SseEventTooLargeError(maxEventChars);
      return out;
    },
  };
}
