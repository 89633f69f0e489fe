import { describe, expect, it } from 'vitest';
import { readSseEvents, type SseEvent } from '../../../src/activities/models/openai/openai-sse';

async function* bytes(...parts: Array<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? new TextEncoder().encode(part) : part;
}

async function events(...parts: Array<string | Uint8Array>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of readSseEvents(bytes(...parts))) out.push(event);
  return out;
}

const STREAM =
  ': keep-alive comment\n' +
  'data: {"a":1}\n\n' +
  'event: error\r\ndata: {"error":{"message":"x"}}\r\n\r\n' +
  'data: line one\rdata:line two\r\r' +
  'id: 7\nretry: 100\ndata: ünï€😀\n\n' +
  'data: [DONE]\n\n';

const EXPECTED: SseEvent[] = [
  { event: null, data: '{"a":1}' },
  { event: 'error', data: '{"error":{"message":"x"}}' },
  { event: null, data: 'line one\nline two' },
  { event: null, data: 'ünï€😀' },
  { event: null, data: '[DONE]' },
];

describe('readSseEvents', () => {
  it('parses LF, CRLF and CR line endings, comments, event names and multi-line data', async () => {
    expect(await events(STREAM)).toEqual(EXPECTED);
  });

  it('gives the same events however the bytes are split, even inside a character or a CRLF', async () => {
    const encoded = new TextEncoder().encode(STREAM);
    for (let cut = 1; cut < encoded.length; cut += 1) {
      expect(await events(encoded.slice(0, cut), encoded.slice(cut))).toEqual(EXPECTED);
    }
    expect(await events(...[...encoded].map((b) => new Uint8Array([b])))).toEqual(EXPECTED);
  });

  it('drops an event the body ended before closing', async () => {
    expect(await events('data: {"a":1}\n\ndata: {"choices":[{"del')).toEqual([{ event: null, data: '{"a":1}' }]);
    expect(await events('data: [DONE]')).toEqual([]);
  });

  it('propagates read errors', async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('data: 1\n\n');
      throw new TypeError('terminated');
    }
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of readSseEvents(broken())) seen.push(event.data);
      })(),
    ).rejects.toThrow('terminated');
    expect(seen).toEqual(['1']);
  });
});
