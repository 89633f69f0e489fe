/** One server-sent event: its `event:` name (null when absent) and its `data:` lines joined by `\n`. */
export interface SseEvent {
  event: string | null;
  data: string;
}

/**
 * The events of an SSE body, parsed as the HTML spec says for the fields used here (`event`,
 * `data`; comments and `id`/`retry` ignored). Lines may end in LF, CRLF or CR, and events and
 * lines may be split anywhere across network chunks. An event not closed by a blank line when
 * the body ends is dropped, as the spec says (so a cut-off chunk reads as a cut-off stream).
 * Read errors propagate.
 */
export async function* readSseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | null = null;
  let data: string[] = [];

  function* takeLines(final: boolean): Generator<SseEvent> {
    // A trailing CR may be the first half of CRLF: keep it until the next chunk shows.
    const end = !final && buffer.endsWith('\r') ? buffer.length - 1 : buffer.length;
    const lines = buffer.slice(0, end).split(/\r\n|\r|\n/);
    buffer = (final ? '' : (lines.pop() ?? '')) + buffer.slice(end);
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) yield { event, data: data.join('\n') };
        event = null;
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
  }

  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    yield* takeLines(false);
  }
  buffer += decoder.decode();
  yield* takeLines(true);
}
