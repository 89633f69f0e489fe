import { describe, expect, it } from 'vitest';
import { earlyEof, hang, midStreamError, nonJsonError, socketReset, text } from '../../src/testing';
import { API_KEY, useFakeServerPerTest, waitFor } from './fixtures';

const start = useFakeServerPerTest();

function post(baseUrl: string, stream: boolean, signal?: AbortSignal): Promise<Response> {
  return fetch(`${baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: JSON.stringify({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
      stream,
    }),
    ...(signal === undefined ? {} : { signal }),
  });
}

const eventNames = (body: string) => [...body.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);

describe('fake Messages server faults', () => {
  it('nonJsonError: an HTML 502 page, recorded as a fault', async () => {
    const s = await start([nonJsonError()]);
    const response = await post(s.baseUrl, true);
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toContain('<title>502 Bad Gateway</title>');
    expect(s.requests[0]).toMatchObject({ status: 502, fault: 'non-JSON 502 (text/html)' });
    s.verify();
  });

  it('earlyEof: the stream ends cleanly after the given events, never with message_stop', async () => {
    const s = await start([earlyEof({ afterEvents: 5 }), earlyEof({ afterEvents: 1000 })]);
    expect(eventNames(await (await post(s.baseUrl, true)).text())).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
    ]);
    const all = eventNames(await (await post(s.baseUrl, true)).text());
    expect(all.at(-1)).toBe('message_delta');
    expect(s.requests.map((r) => [r.fault, r.eventsSent, r.clientAborted])).toEqual([
      ['eof after 5 events', 5, false],
      ['eof after 1000 events', all.length, false],
    ]);
  });

  it('earlyEof without streaming: half a JSON body', async () => {
    const s = await start([earlyEof()]);
    const body = await (await post(s.baseUrl, false)).text();
    expect(body.startsWith('{"id":"msg_01')).toBe(true);
    expect(() => JSON.parse(body)).toThrow();
  });

  it('midStreamError: events, then an Anthropic error event; without streaming, the HTTP error of that type', async () => {
    const s = await start([midStreamError('overloaded_error'), midStreamError('overloaded_error')]);
    const streamed = await (await post(s.baseUrl, true)).text();
    expect(eventNames(streamed)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'error',
    ]);
    expect(streamed).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"overloaded_error","message":"Overloaded"\}/,
    );
    const plain = await post(s.baseUrl, false);
    expect(plain.status).toBe(529);
    expect(await plain.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(s.requests.map((r) => r.fault)).toEqual([
      'error event overloaded_error after 4 events',
      'error event overloaded_error after 4 events',
    ]);
    s.verify();
  });

  it('socketReset: the client sees the connection die mid-body, or before any answer', async () => {
    const s = await start([socketReset(), socketReset({ afterEvents: 0 })]);
    const midBody = await post(s.baseUrl, true);
    expect(midBody.status).toBe(200);
    await expect(midBody.text()).rejects.toThrow();
    await expect(post(s.baseUrl, true)).rejects.toThrow(/fetch failed/);
    expect(s.requests.map((r) => [r.fault, r.status, r.eventsSent, r.clientAborted])).toEqual([
      ['socket reset after 4 events', 200, 4, false],
      ['socket reset after 0 events', undefined, undefined, false],
    ]);
  });

  it('hang: no answer until the client aborts, which is recorded', async () => {
    const s = await start([hang(), hang({ afterEvents: 3, reply: text('partial') })]);
    const controller = new AbortController();
    const silent = post(s.baseUrl, true, controller.signal).catch((e: unknown) => e);
    await waitFor(() => s.requests.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect(await silent).toBeInstanceOf(Error);
    await waitFor(() => s.requests[0]?.clientAborted === true);
    expect(s.requests[0]?.status).toBeUndefined();

    const stalled = new AbortController();
    const response = await post(s.baseUrl, true, stalled.signal);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^event: message_start/);
    stalled.abort();
    await waitFor(() => s.requests[1]?.clientAborted === true);
    expect(s.requests[1]).toMatchObject({ fault: 'hang after 3 events', status: 200, eventsSent: 3 });
    s.verify();
  });

  it('verify() names unused fault entries', async () => {
    const s = await start([socketReset(), hang()]);
    expect(() => s.verify()).toThrow(/2 script entries left unused: socket reset after 4 events; hang after 0 events/);
  });
});
