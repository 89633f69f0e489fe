import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../../src/activities/models/openai/openai-compatible-provider';
import { UNPARSED_ARGUMENTS_KEY } from '../../../src/activities/models/openai/openai-mapping';
import { message, text, toolUse } from '../../../src/testing/openai';
import { API_KEY, modelRequest, useOpenAIProviderOnFakeServer, weatherTool } from './fixtures';

describe.each([
  ['streamed', true],
  ['not streamed', false],
])('openai-compatible provider, %s', (_label, stream) => {
  const fake = useOpenAIProviderOnFakeServer({ stream });
  const complete = fake.complete;

  it('maps a text reply and sends the system prompt first, without tools', async () => {
    fake.server.append([text('It is sunny.')]);
    const reply = await complete();
    expect(reply.content).toEqual([{ type: 'text', text: 'It is sunny.' }]);
    expect(reply.stopReason).toBe('end_turn');
    expect(reply.model).toBe('llama3.2');
    expect(reply.durationMs).toBeGreaterThanOrEqual(0);
    const request = fake.server.requests[0];
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.auth).toBe('none');
    const body = request?.body;
    expect(body?.messages).toEqual([
      { role: 'system', content: 'You are a careful assistant.' },
      { role: 'user', content: 'What is the weather in Paris?' },
    ]);
    expect(body?.max_tokens).toBe(1024);
    expect(body?.tools).toBeUndefined();
    expect(body?.tool_choice).toBeUndefined();
    expect(body?.stream).toBe(stream ? true : undefined);
    expect(body?.stream_options).toEqual(stream ? { include_usage: true } : undefined);
  });

  it('maps a tool call reply: text, id, parsed arguments, stop reason, tools sent as functions', async () => {
    fake.server.append([toolUse('get_weather', { city: 'Paris' }, { text: 'Let me check.', id: 'call_fixed_1' })]);
    const reply = await complete(modelRequest({ tools: [weatherTool] }));
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'call_fixed_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    const body = fake.server.requests[0]?.body;
    expect(body?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: weatherTool.inputSchema,
        },
      },
    ]);
    expect(body?.tool_choice).toBeUndefined();
  });

  it('sends tool results back as tool messages after tool_calls, and toolChoice none as tool_choice none', async () => {
    fake.server.append([toolUse('get_weather', { city: 'Paris' }), text('Sunny, 21°C.')]);
    const first = await complete(modelRequest({ tools: [weatherTool] }));
    const call = first.content[0];
    if (call?.type !== 'tool_use') throw new Error('expected a tool_use block');
    expect(call.id).toMatch(/^call_[0-9A-Za-z]{24}$/);
    const followUp = modelRequest({
      tools: [weatherTool],
      toolChoice: 'none',
      messages: [
        ...modelRequest().messages,
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, ...first.content] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Also: be brief.' },
            { type: 'tool_result', toolUseId: call.id, content: '{"tempC":21}', isError: false },
          ],
        },
      ],
    });
    const second = await complete(followUp);
    expect(second.content).toEqual([{ type: 'text', text: 'Sunny, 21°C.' }]);
    const body = fake.server.requests[1]?.body;
    expect(body?.tool_choice).toBe('none');
    expect(body?.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: call.id, content: '{"tempC":21}' },
      { role: 'user', content: 'Also: be brief.' },
    ]);
  });

  it('maps several tool calls in order, and keeps unparseable arguments for the model to see', async () => {
    fake.server.append([
      message(null, [
        { name: 'get_weather', arguments: { city: 'Oslo' } },
        { name: 'get_weather', arguments: '{"city": "Ber' },
        { name: 'get_time', arguments: '' },
      ]),
    ]);
    const reply = await complete(modelRequest({ tools: [weatherTool] }));
    expect(reply.content.map((b) => (b.type === 'tool_use' ? b.input : b))).toEqual([
      { city: 'Oslo' },
      { [UNPARSED_ARGUMENTS_KEY]: '{"city": "Ber' },
      {},
    ]);
  });

  it.each([
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
    ['something_new', 'something_new'],
  ])('maps finish_reason %s to %s', async (finishReason, stopReason) => {
    fake.server.append([text('cut', { finishReason })]);
    expect((await complete()).stopReason).toBe(stopReason);
  });

  it('reports usage with cached prompt tokens split out, and prices it from the table', async () => {
    fake.server.append([
      text('ok', { model: 'gpt-4.1-mini', usage: { prompt_tokens: 1000, completion_tokens: 200, cached_tokens: 400 } }),
    ]);
    const priced = createOpenAICompatibleProvider({
      baseURL: fake.server.baseUrl,
      stream,
      prices: { 'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 } },
    });
    const reply = await priced.complete(modelRequest({ model: 'gpt-4.1-mini' }), new AbortController().signal);
    expect(reply.usage).toEqual({ inputTokens: 600, outputTokens: 200, cacheReadTokens: 400, cacheWriteTokens: 0 });
    // 600 × $0.4 + 200 × $1.6 + 400 × $0.1, per million tokens.
    expect(reply.costUsd).toBeCloseTo(0.0006, 9);
    expect(priced.name).toBe('openai-compatible');
  });

  it('costs a local model 0 and reads missing usage as zeros', async () => {
    fake.server.append([
      text('ok', { usage: { prompt_tokens: 5000, completion_tokens: 900 } }),
      text('ok', { usage: null }),
    ]);
    const first = await complete();
    expect(first.usage).toEqual({ inputTokens: 5000, outputTokens: 900, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(first.costUsd).toBe(0);
    const second = await complete();
    expect(second.usage).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});

describe('openai-compatible provider, auth and headers', () => {
  const fake = useOpenAIProviderOnFakeServer({ apiKey: API_KEY, headers: { 'x-title': 'thoughtline' } });

  it('sends the key as a Bearer token, extra headers too, and never records the key', async () => {
    fake.server.append([text('ok')]);
    await fake.complete();
    const request = fake.server.requests[0];
    expect(request?.auth).toBe('bearer');
    expect(request?.headers.authorization).toBe('Bearer [redacted]');
    expect(request?.headers['x-title']).toBe('thoughtline');
    expect(JSON.stringify(fake.server.requests)).not.toContain(API_KEY);
  });

  it('tolerates a trailing slash in baseURL', async () => {
    fake.server.append([text('ok')]);
    const provider = createOpenAICompatibleProvider({ baseURL: `${fake.server.baseUrl}/`, stream: false });
    await provider.complete(modelRequest(), new AbortController().signal);
    expect(fake.server.requests[0]?.path).toBe('/v1/chat/completions');
  });
});
