import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { message, redactedThinkingBlock, text, textBlock, thinkingBlock, toolUseBlock } from '../../src/testing';
import { API_KEY, useFakeServerPerTest } from './fixtures';

const start = useFakeServerPerTest();

interface Sse {
  event: string;
  data: Record<string, unknown> & { type: string };
}

/** POSTs a streamed request and parses the SSE body by hand, independent of the SDK. */
async function streamRaw(baseUrl: string): Promise<{ response: Response; events: Sse[] }> {
  const response = await fetch(`${baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: JSON.stringify({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    }),
  });
  const body = await response.text();
  const events = body
    .split('\n\n')
    .filter((chunk) => chunk !== '')
    .map((chunk) => {
      const [eventLine, dataLine, ...extra] = chunk.split('\n');
      expect(extra).toEqual([]);
      expect(eventLine).toMatch(/^event: \w+$/);
      expect(dataLine).toMatch(/^data: /);
      return {
        event: eventLine!.slice('event: '.length),
        data: JSON.parse(dataLine!.slice('data: '.length)) as Sse['data'],
      };
    });
  return { response, events };
}

const deltasOf = (events: Sse[], index: number) =>
  events
    .filter((e) => e.event === 'content_block_delta' && e.data.index === index)
    .map((e) => e.data.delta as Record<string, string>);

const mixedReply = () =>
  message(
    [
      thinkingBlock('The user wants the weather; I should call the tool.', 'sig-EqQBCkYIBRgCKkA'),
      textBlock('Let me check the weather for you.'),
      toolUseBlock('get_weather', { city: 'Paris', units: 'celsius' }, 'toolu_fixed'),
    ],
    { usage: { input_tokens: 50, output_tokens: 30 } },
  );

describe('fake Messages server streaming (SSE)', () => {
  it('sends the real API event order: message_start, blocks with one ping after the first start, message_delta, message_stop', async () => {
    const s = await start([mixedReply()]);
    const { response, events } = await streamRaw(s.baseUrl);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('request-id')).toMatch(/^req_01/);
    for (const e of events) expect(e.data.type).toBe(e.event);
    const order = events
      .map((e) => e.event)
      .filter((name, i, all) => name !== 'content_block_delta' || all[i - 1] !== 'content_block_delta');
    expect(order).toEqual([
      'message_start',
      ...['content_block_start', 'ping', 'content_block_delta', 'content_block_stop'],
      ...['content_block_start', 'content_block_delta', 'content_block_stop'],
      ...['content_block_start', 'content_block_delta', 'content_block_stop'],
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]?.data.message).toMatchObject({
      content: [],
      stop_reason: null,
      model: 'claude-haiku-4-5',
      usage: { input_tokens: 50 },
    });
    expect(events.at(-2)?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null, stop_details: null },
      usage: { output_tokens: 30 },
    });
    expect(s.requests[0]).toMatchObject({ stream: true, status: 200, eventsSent: events.length, clientAborted: false });
    s.verify();
  });

  it('chunks thinking (then one signature_delta), text and tool input JSON into several deltas', async () => {
    const s = await start([mixedReply()]);
    const { events } = await streamRaw(s.baseUrl);
    const starts = events.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block);
    expect(starts).toEqual([
      { type: 'thinking', thinking: '', signature: '' },
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'toolu_fixed', name: 'get_weather', input: {}, caller: { type: 'direct' } },
    ]);

    const thinking = deltasOf(events, 0);
    expect(thinking.map((d) => d.type)).toEqual([
      'thinking_delta',
      'thinking_delta',
      'thinking_delta',
      'thinking_delta',
      'signature_delta',
    ]);
    expect(thinking.map((d) => d.thinking ?? '').join('')).toBe('The user wants the weather; I should call the tool.');
    expect(thinking.at(-1)?.signature).toBe('sig-EqQBCkYIBRgCKkA');

    const textDeltas = deltasOf(events, 1);
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(textDeltas.every((d) => d.type === 'text_delta')).toBe(true);
    expect(textDeltas.map((d) => d.text).join('')).toBe('Let me check the weather for you.');

    const json = deltasOf(events, 2);
    expect(json[0]).toEqual({ type: 'input_json_delta', partial_json: '' });
    expect(json.length).toBeGreaterThan(2);
    expect(JSON.parse(json.map((d) => d.partial_json).join(''))).toEqual({ city: 'Paris', units: 'celsius' });
  });

  it('streams into the same Message (through the real SDK) as the non-streamed answer', async () => {
    const s = await start([mixedReply(), mixedReply()]);
    const client = new Anthropic({ apiKey: API_KEY, baseURL: s.baseUrl, maxRetries: 0 });
    const params = { model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user' as const, content: 'hi' }] };
    const streamed = await client.messages.stream(params).finalMessage();
    const plain = await client.messages.create(params);
    const comparable = (m: Anthropic.Message) => ({
      content: m.content.map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : b)),
      stop_reason: m.stop_reason,
      model: m.model,
      usage: m.usage,
    });
    expect(comparable(streamed)).toEqual(comparable(plain));
    expect(s.requests.map((r) => r.stream)).toEqual([true, false]);
    s.verify();
  });

  it('sends redacted_thinking whole in its content_block_start, with no deltas', async () => {
    const s = await start([message([redactedThinkingBlock('EmwKAhgBEgy3va3pzix'), textBlock('Done.')])]);
    const { events } = await streamRaw(s.baseUrl);
    expect(events[1]?.data.content_block).toEqual({ type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' });
    expect(deltasOf(events, 0)).toEqual([]);
  });

  it('keeps its loud failures for streamed requests: an exhausted script is a JSON 500 and verify() throws', async () => {
    const s = await start([text('only one')]);
    await streamRaw(s.baseUrl);
    const response = await fetch(`${s.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: JSON.stringify({ model: 'm', max_tokens: 1, messages: [], stream: true }),
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /script exhausted: request #2/,
    );
    expect(() => s.verify()).toThrow(/script exhausted/);
  });
});
