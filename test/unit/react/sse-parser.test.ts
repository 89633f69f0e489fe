import { describe, expect, it } from 'vitest';
import { createSseParser, SseEventTooLargeError } from '../../../src/react/sse-parser';

describe('thoughtline/react: the event stream parser', () => {
  it('reads events split anywhere, CRLF split across chunks, comments and multi-line data', () => {
    const parser = createSseParser(1_000);
    const chunks = [
      ': ping\n\nevent: step\nid: 1\ndata: {"n":1}\r',
      '\n\r\nevent: text_delta\nid: 1.1\nda',
      'ta: a\ndata: b\n\n',
    ];
    expect(chunks.flatMap((c) => parser.push(c))).toEqual([
      { event: 'step', id: '1', data: '{"n":1}' },
      { event: 'text_delta', id: '1.1', data: 'a\nb' },
    ]);
  });

  it('keeps the last id for an event without one, and names an unnamed event message', () => {
    const parser = createSseParser(1_000);
    expect(parser.push('id: 7\ndata: x\n\ndata: y\n\n')).toEqual([
      { event: 'message', id: '7', data: 'x' },
      { event: 'message', id: '7', data: 'y' },
    ]);
  });

  it('reads an event of exactly the bound and refuses one character more, whole or unfinished', () => {
    const bound = 100;
    // Held per event: each data line and its line break.
    const exact = 'x'.repeat(bound - 1);
    expect(createSseParser(bound).push(`data: ${exact}\n\n`)).toEqual([{ event: 'message', id: '', data: exact }]);
    expect(() => createSseParser(bound).push(`data: ${exact}x\n\n`)).toThrow(SseEventTooLargeError);
    // A line still arriving: held up to the bound, refused past it (not held forever).
    expect(createSseParser(bound).push(`data: ${'y'.repeat(bound)}`)).toEqual([]);
    expect(() => createSseParser(bound).push(`data: ${'y'.repeat(bound + 1)}`)).toThrow(SseEventTooLargeError);
    const split = createSseParser(bound);
    expect([...split.push(`data: ${exact.slice(0, 50)}`), ...split.push(`${exact.slice(50)}\n\n`)]).toEqual([
      { event: 'message', id: '', data: exact },
    ]);
  });
});
