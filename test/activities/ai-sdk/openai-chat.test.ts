import { describe, expect, it } from 'vitest';
import { FailureType, type ModelMessage } from '../../../src/domain';
import { httpError, socketReset, streamError, text, toolUse } from '../../../src/testing/openai';
import { failureOf, recordingHooks, useOpenAIChatAdapter, weatherTool } from './fixtures';

describe('AI SDK adapter over @ai-sdk/openai Chat Completions (fake server, real HTTP): replies', () => {
  const fake = useOpenAIChatAdapter({
    prices: { 'gpt-4o': { input: 2.5, output: 10, cacheWrite: 0, cacheRead: 1.25 } },
  });

  it('streams text deltas to the hooks, heartbeats per part, and maps the reply', async () => {
    fake.server.append([
      text('It is sunny today.', { chunkSize: 5, usage: { prompt_tokens: 30, completion_tokens: 7 } }),
    ]);
    const seen = recordingHooks();
    const reply = await fake.complete({}, seen.hooks);
    expect(seen.text()).toEqual(['It is', ' sunn', 'y tod', 'ay.']);
    // stream-start, response-metadata, text-start, 4 deltas, text-end, finish at least.
    expect(seen.heartbeats()).toBeGreaterThanOrEqual(9);
    expect(reply).toMatchObject({
      content: [{ type: 'text', text: 'It is sunny today.' }],
      stopReason: 'end_turn',
      model: 'gpt-4o',
      usage: { inputTokens: 30, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
    expect(reply.costUsd).toBeCloseTo((30 * 2.5 + 7 * 10) / 1e6, 12);
    expect(reply.durationMs).toBeGreaterThanOrEqual(0);
    expect(fake.server.requests[0]!.body).toMatchObject({
      model: 'gpt-4o',
      stream: true,
      max_tokens: 1024,
      messages: [
        { role: 'system', content: 'You are a careful assistant.' },
        { role: 'user', content: 'What is the weather in Paris?' },
      ],
    });
  });

  it('splits cached prompt tokens out of the input, and prices them as cache reads', async () => {
    fake.server.append([text('ok', { usage: { prompt_tokens: 1000, completion_tokens: 10, cached_tokens: 800 } })]);
    const reply = await fake.complete();
    expect(reply.usage).toEqual({ inputTokens: 200, outputTokens: 10, cacheReadTokens: 800, cacheWriteTokens: 0 });
    expect(reply.costUsd).toBeCloseTo((200 * 2.5 + 10 * 10 + 800 * 1.25) / 1e6, 12);
  });

  it('a tool call round trip: the call comes back as tool_use, its result goes out as a tool message', async () => {
    fake.server.append([
      toolUse('get_weather', { city: 'Paris' }, { id: 'call_1', text: 'Checking.', chunkSize: 3 }),
      text('Sunny, 21 degrees.'),
    ]);
    const first = await fake.complete({ tools: [weatherTool] });
    expect(first.stopReason).toBe('tool_use');
    expect(first.content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
      { role: 'assistant', content: first.content },
      {
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: 'call_1', content: 'sunny, 21 C', isError: false }],
      },
    ];
    const second = await fake.complete({ tools: [weatherTool], messages, toolChoice: 'none' });
    expect(second.content).toEqual([{ type: 'text', text: 'Sunny, 21 degrees.' }]);
    const firstBody = fake.server.requests[0]!.body!;
    expect(firstBody.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: expect.objectContaining({ type: 'object', properties: { city: { type: 'string' } } }),
        },
      },
    ]);
    const body = fake.server.requests[1]!.body!;
    expect(body.tool_choice).toBe('none');
    expect(body.messages.slice(1)).toEqual([
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny, 21 C' },
    ]);
  });

  it('arguments that are not a JSON object become { unparsedArguments } for the workflow to refuse', async () => {
    fake.server.append([toolUse('get_weather', '{"city": "Par', { id: 'call_bad' })]);
    const reply = await fake.complete({ tools: [weatherTool] });
    expect(reply.content).toEqual([
      { type: 'tool_use', id: 'call_bad', name: 'get_weather', input: { unparsedArguments: '{"city": "Par' } },
    ]);
  });

  it('length is max_tokens; stop sequences and sampling settings are sent', async () => {
    fake.server.append([text('Thought: I should', { finishReason: 'length' }), text('Thought: done')]);
    expect((await fake.complete({ maxTokens: 5 })).stopReason).toBe('max_tokens');
    const stopped = await fake.complete({
      stopSequences: ['\nObservation:'],
      sampling: { temperature: 0.2, topP: 0.9, seed: 7 },
    });
    expect(stopped.stopReason).toBe('end_turn');
    expect(fake.server.requests[0]!.body).toMatchObject({ max_tokens: 5 });
    expect(fake.server.requests[1]!.body).toMatchObject({
      stop: ['\nObservation:'],
      temperature: 0.2,
      top_p: 0.9,
      seed: 7,
    });
  });

  it('topK, which Chat Completions cannot take, fails the call as ModelSettingUnsupported instead of being dropped', async () => {
    fake.server.append([text('never read')]);
    const failure = await failureOf(fake.complete({ sampling: { topK: 40 } }));
    expect(failure.type).toBe(FailureType.ModelSettingUnsupported);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toBe(
      'openai.chat/gpt-4o does not take topK; remove it from the run, the registry entry or the ask_model call.',
    );
  });

  it('a request for another model id is refused before any request', async () => {
    const failure = await failureOf(fake.complete({ model: 'gpt-4o-mini' }));
    expect(failure.type).toBe(FailureType.ModelNotFound);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toContain('"gpt-4o-mini"');
    expect(fake.server.requests).toHaveLength(0);
  });
});

describe('AI SDK adapter over @ai-sdk/openai Chat Completions (fake server, real HTTP): failures', () => {
  const fake = useOpenAIChatAdapter();

  it('429 with retry-after is ModelRateLimited, retryable, waiting as long as the server asked', async () => {
    fake.server.append([httpError(429, { retryAfter: 2, headers: { 'x-request-id': 'req_429' } })]);
    const failure = await failureOf(fake.complete());
    expect(failure).toMatchObject({ type: FailureType.ModelRateLimited, nonRetryable: false, nextRetryDelay: 2000 });
    expect(failure.message).toBe('openai.chat 429: Rate limit reached for requests');
    expect(failure.details).toEqual([{ status: 429, requestId: 'req_429' }]);
  });

  it('retry-after-ms wins over retry-after', async () => {
    fake.server.append([httpError(503, { retryAfterMs: 1500, retryAfter: 9 })]);
    const failure = await failureOf(fake.complete());
    expect(failure).toMatchObject({ type: FailureType.ModelOverloaded, nonRetryable: false, nextRetryDelay: 1500 });
  });

  it.each([
    [400, FailureType.ModelBadRequest, true],
    [401, FailureType.ModelAuthentication, true],
    [403, FailureType.ModelPermissionDenied, true],
    [404, FailureType.ModelNotFound, true],
    [413, FailureType.ModelRequestTooLarge, true],
    [500, FailureType.ModelServerError, false],
  ])('%i is %s, nonRetryable %s, with the server message and no delay', async (status, type, nonRetryable) => {
    fake.server.append([httpError(status, { message: `problem ${status}` })]);
    const failure = await failureOf(fake.complete());
    expect(failure).toMatchObject({ type, nonRetryable });
    expect(failure.message).toBe(`openai.chat ${status}: problem ${status}`);
    expect(failure.nextRetryDelay).toBeUndefined();
    expect(fake.server.requests).toHaveLength(1);
  });

  it('a stream cut before its finish chunk is ModelStreamIncomplete, retryable', async () => {
    fake.server.append([text('It is sunny and', { streamEnd: 'eof-before-finish' })]);
    const seen = recordingHooks();
    const failure = await failureOf(fake.complete({}, seen.hooks));
    expect(failure).toMatchObject({ type: FailureType.ModelStreamIncomplete, nonRetryable: false });
    expect(seen.text().join('')).toBe('It is sunny and');
  });

  it('a connection reset mid-stream is retryable', async () => {
    fake.server.append([text('It is sunny and warm today in Paris.', { streamEnd: 'reset' })]);
    const failure = await failureOf(fake.complete());
    expect(failure).toMatchObject({ type: FailureType.ModelStreamIncomplete, nonRetryable: false });
    expect(failure.message).toContain('terminated');
  });

  it('a reset before any answer is a retryable ModelConnectionError', async () => {
    fake.server.append([socketReset()]);
    const failure = await failureOf(fake.complete());
    expect(failure).toMatchObject({ type: FailureType.ModelConnectionError, nonRetryable: false });
  });

  it('an error chunk mid-stream fails the call with the server message', async () => {
    fake.server.append([
      streamError({ message: 'The server had an error', type: 'server_error' }, { partialText: 'It is' }),
    ]);
    const failure = await failureOf(fake.complete());
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toContain('The server had an error');
  });
});
