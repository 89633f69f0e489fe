import { afterEach, describe, expect, it } from 'vitest';
import { readSseEvents } from '../../../src/activities/models/openai/openai-sse';
import {
  httpError,
  startFakeOpenAIServer,
  text,
  toolUse,
  type ChatScriptEntry,
  type FakeOpenAIServer,
  type FakeOpenAIServerOptions,
} from '../../../src/testing/openai';

let server: FakeOpenAIServer | undefined;

async function start(
  script: ChatScriptEntry[] = [],
  options: Omit<FakeOpenAIServerOptions, 'script'> = {},
): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer({ script, ...options });
  return server;
}
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = { model: 'qwen3:8b', messages: [{ role: 'user', content: 'hi' }] };

function post(s: FakeOpenAIServer, body: unknown, headers: Record<string, string> = {}, path = '/chat/completions') {
  return fetch(`${s.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('fake OpenAI-compatible server', () => {
  it('answers a chat.completion: ids, echoed model, null content beside tool calls, usage', async () => {
    const s = await start([toolUse('get_weather', { city: 'Oslo' })]);
    const reply = (await (await post(s, ask)).json()) as Record<string, any>;
    expect(reply.id).toMatch(/^chatcmpl-[0-9A-Za-z]{29}$/);
    expect(reply.object).toBe('chat.completion');
    expect(reply.model).toBe('qwen3:8b');
    const choice = reply.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls[0]).toEqual({
      id: expect.stringMatching(/^call_[0-9A-Za-z]{24}$/),
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
    });
    expect(reply.usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    s.verify();
  });

  it('streams chunks, a usage-only chunk when asked for, then [DONE]', async () => {
    const s = await start([text('abcdef', { chunkSize: 3 }), text('abcdef', { chunkSize: 3 })]);
    const read = async (body: unknown) => {
      const response = await post(s, body);
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const datas: string[] = [];
      for await (const event of readSseEvents(response.body!)) datas.push(event.data);
      return datas;
    };
    const withUsage = await read({ ...ask, stream: true, stream_options: { include_usage: true } });
    expect(withUsage.at(-1)).toBe('[DONE]');
    const chunks = withUsage.slice(0, -1).map((d) => JSON.parse(d) as Record<string, any>);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? null)).toEqual(['', 'abc', 'def', null, null]);
    expect(chunks.map((c) => c.choices[0]?.finish_reason ?? null)).toEqual([null, null, null, 'stop', null]);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    const without = (await read({ ...ask, stream: true }))
      .slice(0, -1)
      .map((d) => JSON.parse(d) as Record<string, any>);
    expect(without).toHaveLength(4);
    expect(without.every((c) => !('usage' in c))).toBe(true);
    s.verify();
  });

  it('lets a script entry compute its reply from the request body', async () => {
    const s = await start([(body) => text(`you said ${String(body.messages[0]?.content)}`)]);
    const reply = (await (await post(s, ask)).json()) as Record<string, any>;
    expect(reply.choices[0].message.content).toBe('you said hi');
    s.verify();
  });

  it('records requests with auth redacted, or none', async () => {
    const s = await start([text('a'), text('b')]);
    await post(s, ask, { authorization: 'Bearer sk-secret-value-123456' });
    await post(s, ask);
    expect(s.requests.map((r) => r.auth)).toEqual(['bearer', 'none']);
    expect(s.requests[0]?.headers.authorization).toBe('Bearer [redacted]');
    expect(JSON.stringify(s.requests)).not.toContain('sk-secret-value');
    s.verify();
  });

  it('with apiKey, answers 401 to a missing or wrong key without consuming the script', async () => {
    const s = await start([text('ok')], { apiKey: 'sk-right-key-000000' });
    expect((await post(s, ask)).status).toBe(401);
    expect((await post(s, ask, { authorization: 'Bearer sk-wrong' })).status).toBe(401);
    expect((await post(s, ask, { authorization: 'Bearer sk-right-key-000000' })).status).toBe(200);
    s.verify();
  });

  it('verify() fails when entries are left unused', async () => {
    const s = await start([text('used'), text('never requested'), httpError(429)]);
    await post(s, ask);
    expect(() => s.verify()).toThrow(
      /2 script entries left unused: message\[text\("never requested"\)\]; httpError\(429\)/,
    );
  });

  it('answers an exhausted script loudly (not retryable) and verify() fails even if the client swallowed it', async () => {
    const s = await start();
    const response = await post(s, ask);
    expect(response.status).toBe(500);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(() => s.verify()).toThrow(/script exhausted: request #1 arrived after all 0 entries were used/);
  });

  it.each([
    ['a path without /v1', ask, '/../chat/completions', 404, /no route for POST \/chat\/completions/],
    ['invalid JSON', '{nope', '/chat/completions', 400, /not valid JSON/],
    ['no model', { messages: ask.messages }, '/chat/completions', 400, /model \(string\) is required/],
    [
      'stream_options without stream',
      { ...ask, stream_options: { include_usage: true } },
      '/chat/completions',
      400,
      /stream_options/,
    ],
    ['tool_choice without tools', { ...ask, tool_choice: 'none' }, '/chat/completions', 400, /tool_choice/],
    [
      'a tool message answering nothing',
      { ...ask, messages: [...ask.messages, { role: 'tool', tool_call_id: 'call_x', content: '1' }] },
      '/chat/completions',
      400,
      /must answer a preceding 'tool_calls' id/,
    ],
    [
      'tool_calls left unanswered',
      {
        ...ask,
        messages: [
          ...ask.messages,
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_y', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'user', content: 'and?' },
        ],
      },
      '/chat/completions',
      400,
      /call_y were not answered/,
    ],
  ])('records %s as a harness problem', async (_what, body, path, status, problem) => {
    const s = await start([text('kept')]);
    const response = await post(s, body, {}, path);
    expect(response.status).toBe(status);
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]).toMatch(problem);
    expect(() => s.verify()).toThrow(problem);
  });

  it('reports a stream fault scripted for a non-streamed request', async () => {
    const s = await start([text('x', { streamEnd: 'eof-before-done' })]);
    expect((await post(s, ask)).status).toBe(500);
    expect(() => s.verify()).toThrow(/is a stream fault but the request was not streamed/);
  });

  it('reports a script function that throws', async () => {
    const s = await start([
      function broken() {
        throw new Error('boom');
      },
    ]);
    expect((await post(s, ask)).status).toBe(500);
    expect(() => s.verify()).toThrow(/script entry #1 \(function broken\) threw: Error: boom/);
  });
});
