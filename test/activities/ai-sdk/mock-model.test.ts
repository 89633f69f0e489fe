import { describe, expect, it } from 'vitest';
import { createAiSdkProvider } from '../../../src/activities/models/ai-sdk/ai-sdk-provider';
import type { AiSdkStreamPart, AiSdkUsage } from '../../../src/activities/models/ai-sdk/ai-sdk-types';
import { FailureType, type ModelMessage, type ModelRequest } from '../../../src/domain';
import { failureOf, recordingHooks, weatherTool } from './fixtures';

/**
 * The parts real providers cannot be made to send through the fake servers (reasoning with
 * redacted data, warnings, error parts, an `interrupted` finish, a model that ignores its abort
 * signal) come from the AI SDK's own MockLanguageModelV4.
 */
type MockModule = typeof import('ai/test', { with: { 'resolution-mode': 'import' } });
type ProviderModule = typeof import('@ai-sdk/provider', { with: { 'resolution-mode': 'import' } });
const load = async (): Promise<MockModule & ProviderModule> => ({
  ...(await import('ai/test')),
  ...(await import('@ai-sdk/provider')),
});

const usage = (input: number, output: number, cache: Partial<AiSdkUsage['inputTokens']> = {}): AiSdkUsage => ({
  inputTokens: { total: input, noCache: undefined, cacheRead: undefined, cacheWrite: undefined, ...cache },
  outputTokens: { total: output, text: undefined, reasoning: undefined },
});

const finish = (unified: string, raw?: string): AiSdkStreamPart =>
  ({ type: 'finish', finishReason: { unified, raw }, usage: usage(10, 5) }) as AiSdkStreamPart;

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  provider: 'mock',
  model: 'mock-model',
  system: 'Be brief.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
  toolChoice: 'auto',
  maxTokens: 256,
  ...overrides,
});

/** A mock model answering each call with the next list of parts. */
async function scripted(...replies: AiSdkStreamPart[][]) {
  const { MockLanguageModelV4, convertArrayToReadableStream } = await load();
  const model = new MockLanguageModelV4({
    provider: 'anthropic.messages',
    modelId: 'mock-model',
    doStream: replies.map((parts) => ({ stream: convertArrayToReadableStream(parts) })),
  });
  return { model, provider: createAiSdkProvider(model, { name: 'mock' }) };
}

const complete = (provider: ReturnType<typeof createAiSdkProvider>, overrides: Partial<ModelRequest> = {}) =>
  provider.complete(request(overrides), new AbortController().signal);

describe('AI SDK adapter with MockLanguageModelV4: reasoning and mapping', () => {
  it('keeps reasoning with its signature or redacted data, streams it, and sends it back under the provider key', async () => {
    const { model, provider } = await scripted(
      [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', modelId: 'mock-model-2026-11-01' },
        { type: 'reasoning-start', id: 'r1' },
        { type: 'reasoning-delta', id: 'r1', delta: 'Think ' },
        { type: 'reasoning-delta', id: 'r1', delta: 'twice.' },
        { type: 'reasoning-delta', id: 'r1', delta: '', providerMetadata: { anthropic: { signature: 'sig-9' } } },
        { type: 'reasoning-end', id: 'r1' },
        { type: 'reasoning-start', id: 'r2', providerMetadata: { anthropic: { redactedData: 'enc-42' } } },
        { type: 'reasoning-end', id: 'r2' },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Hello.' },
        { type: 'text-end', id: 't1' },
        finish('stop', 'end_turn'),
      ],
      [{ type: 'stream-start', warnings: [] }, finish('stop', 'end_turn')],
    );
    const seen = recordingHooks();
    const reply = await provider.complete(request(), new AbortController().signal, seen.hooks);
    expect(reply.content).toEqual([
      { type: 'thinking', thinking: 'Think twice.', signature: 'sig-9' },
      { type: 'redacted_thinking', data: 'enc-42' },
      { type: 'text', text: 'Hello.' },
    ]);
    expect(reply.model).toBe('mock-model-2026-11-01');
    expect(seen.log.filter((e) => !e.startsWith('beat'))).toEqual([
      'thinking:Think ',
      'thinking:twice.',
      'text:Hello.',
    ]);
    expect(seen.heartbeats()).toBe(13);

    const messages: ModelMessage[] = [...request().messages, { role: 'assistant', content: reply.content }];
    await complete(provider, { messages });
    expect(model.doStreamCalls[1]!.prompt.at(-1)).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Think twice.', providerOptions: { anthropic: { signature: 'sig-9' } } },
        { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'enc-42' } } },
        { type: 'text', text: 'Hello.' },
      ],
    });
  });

  it('sends a signature back under the key its provider reads (Bedrock reads `bedrock`, not `amazon-bedrock`)', async () => {
    const { MockLanguageModelV4, convertArrayToReadableStream } = await load();
    const model = new MockLanguageModelV4({
      provider: 'amazon-bedrock',
      modelId: 'mock-model',
      doStream: { stream: convertArrayToReadableStream<AiSdkStreamPart>([finish('stop')]) },
    });
    const messages: ModelMessage[] = [
      ...request().messages,
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm.', signature: 'sig-b' }] },
    ];
    await complete(createAiSdkProvider(model), { messages });
    expect(model.doStreamCalls[0]!.prompt.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'reasoning', text: 'Hmm.', providerOptions: { bedrock: { signature: 'sig-b' } } }],
    });
  });

  it('maps the request into call options: system, tools, tool choice, results with names and errors, sampling', async () => {
    const { model, provider } = await scripted([{ type: 'stream-start', warnings: [] }, finish('stop')]);
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Oslo' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'c1', content: 'city not found', isError: true },
          { type: 'text', text: 'Try again.' },
        ],
      },
    ];
    await complete(provider, {
      messages,
      tools: [weatherTool],
      toolChoice: 'none',
      stopSequences: ['STOP'],
      sampling: { temperature: 0.3, topP: 0.8, topK: 20, seed: 11 },
    });
    const call = model.doStreamCalls[0]!;
    expect(call).toMatchObject({
      maxOutputTokens: 256,
      stopSequences: ['STOP'],
      temperature: 0.3,
      topP: 0.8,
      topK: 20,
      seed: 11,
      toolChoice: { type: 'none' },
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Current weather for a city',
          inputSchema: weatherTool.inputSchema,
        },
      ],
    });
    expect(call.abortSignal).toBeInstanceOf(AbortSignal);
    expect(call.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Oslo' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'get_weather',
            output: { type: 'error-text', value: 'city not found' },
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Try again.' }] },
    ]);
  });

  it('tool calls: malformed input kept as unparsedArguments, provider-executed calls left out, usage from totals', async () => {
    const { provider } = await scripted([
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '[1, 2]' },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'web_search', input: '{}', providerExecuted: true },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'get_weather', input: '' },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: usage(100, 9, { cacheRead: 60, cacheWrite: 30 }),
      },
    ]);
    const reply = await complete(provider, { tools: [weatherTool] });
    expect(reply.content).toEqual([
      { type: 'tool_use', id: 'c1', name: 'get_weather', input: { unparsedArguments: '[1, 2]' } },
      { type: 'tool_use', id: 'c3', name: 'get_weather', input: {} },
    ]);
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.usage).toEqual({ inputTokens: 10, outputTokens: 9, cacheReadTokens: 60, cacheWriteTokens: 30 });
  });

  it.each([
    ['content-filter', undefined, 'refusal'],
    ['length', 'max_tokens', 'max_tokens'],
    ['stop', 'stop_sequence', 'stop_sequence'],
    ['other', 'pause_turn', 'pause_turn'],
  ])('finish %s (raw %s) is stopReason %s', async (unified, raw, expected) => {
    const { provider } = await scripted([{ type: 'stream-start', warnings: [] }, finish(unified, raw)]);
    expect((await complete(provider)).stopReason).toBe(expected);
  });
});

describe('AI SDK adapter with MockLanguageModelV4: refusals and failures', () => {
  it('an unsupported-setting warning for a sampling setting the call set fails the call, non-retryable', async () => {
    const { provider } = await scripted([
      {
        type: 'stream-start',
        warnings: [
          { type: 'unsupported', feature: 'temperature', details: 'temperature is not supported for reasoning models' },
        ],
      },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'never read' },
      finish('stop'),
    ]);
    const failure = await failureOf(complete(provider, { sampling: { temperature: 0.1 } }));
    expect(failure).toMatchObject({ type: FailureType.ModelSettingUnsupported, nonRetryable: true });
    expect(failure.message).toBe(
      'mock/mock-model does not take temperature (the AI SDK model says: temperature is not supported for reasoning models); ' +
        'remove it from the run, the registry entry or the ask_model call.',
    );
  });

  it('warnings about settings the call did not set, or of other kinds, pass', async () => {
    const { provider } = await scripted([
      {
        type: 'stream-start',
        warnings: [
          { type: 'unsupported', feature: 'topK' },
          { type: 'compatibility', feature: 'maxOutputTokens', details: 'clamped' },
          { type: 'other', message: 'hello' },
        ],
      },
      finish('stop'),
    ]);
    expect((await complete(provider, { sampling: { temperature: 0.5 } })).stopReason).toBe('end_turn');
  });

  it.each([
    [
      { message: 'Overloaded', type: 'overloaded_error', statusCode: 529, isRetryable: true },
      FailureType.ModelOverloaded,
      false,
    ],
    [{ message: 'bad schema', type: 'invalid_request_error', isRetryable: false }, FailureType.ModelBadRequest, true],
    [{ message: 'something odd' }, FailureType.ModelStreamIncomplete, false],
    [new Error('socket hang up'), FailureType.ModelStreamIncomplete, false],
  ])('an error part %j is %s, nonRetryable %s', async (error, type, nonRetryable) => {
    const { provider } = await scripted([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Part' },
      { type: 'error', error },
      finish('error'),
    ]);
    const failure = await failureOf(complete(provider));
    expect(failure).toMatchObject({ type, nonRetryable });
  });

  it('a finish marked interrupted, or no finish at all, is a retryable ModelStreamIncomplete', async () => {
    const { provider } = await scripted(
      [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, finish('interrupted')],
      [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
      ],
    );
    const interrupted = await failureOf(complete(provider));
    expect(interrupted).toMatchObject({ type: FailureType.ModelStreamIncomplete, nonRetryable: false });
    expect(interrupted.message).toBe('mock stream incomplete: the provider ended the stream as interrupted');
    const unfinished = await failureOf(complete(provider));
    expect(unfinished).toMatchObject({ type: FailureType.ModelStreamIncomplete, nonRetryable: false });
    expect(unfinished.message).toBe('mock stream incomplete: the stream ended after 2 parts without a finish');
  });

  it('doStream errors: a missing API key is final; a 429 waits; a connection failure is retried', async () => {
    const { MockLanguageModelV4, LoadAPIKeyError, APICallError } = await load();
    const throwing = (error: unknown) =>
      createAiSdkProvider(
        new MockLanguageModelV4({ modelId: 'mock-model', doStream: async () => Promise.reject(error) }),
        { name: 'mock' },
      );
    const noKey = await failureOf(complete(throwing(new LoadAPIKeyError({ message: 'OpenAI API key is missing.' }))));
    expect(noKey).toMatchObject({ type: FailureType.ModelAuthentication, nonRetryable: true });
    expect(noKey.message).toBe('mock is not configured: OpenAI API key is missing.');

    const limited = new APICallError({
      message: 'slow down',
      url: 'https://example.test/v1/chat',
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { 'retry-after': '3' },
      isRetryable: true,
    });
    expect(await failureOf(complete(throwing(limited)))).toMatchObject({
      type: FailureType.ModelRateLimited,
      nonRetryable: false,
      nextRetryDelay: 3000,
    });

    const refused = new APICallError({
      message: 'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9',
      url: 'https://example.test/v1/chat',
      requestBodyValues: {},
      isRetryable: true,
    });
    expect(await failureOf(complete(throwing(refused)))).toMatchObject({
      type: FailureType.ModelConnectionError,
      nonRetryable: false,
    });
  });

  it('a provider object without the requested model, and a model of an older specification, are refused', async () => {
    const { MockLanguageModelV3, NoSuchModelError } = await load();
    const noSuch = createAiSdkProvider(
      {
        languageModel: (id: string) => {
          throw new NoSuchModelError({ modelId: id, modelType: 'languageModel' });
        },
      },
      { name: 'gateway' },
    );
    const missing = await failureOf(complete(noSuch));
    expect(missing).toMatchObject({ type: FailureType.ModelNotFound, nonRetryable: true });
    expect(missing.message).toContain('gateway has no model "mock-model"');

    const old = new MockLanguageModelV3({ modelId: 'mock-model' });
    const v3 = createAiSdkProvider(old as unknown as Parameters<typeof createAiSdkProvider>[0]);
    const refused = await failureOf(complete(v3));
    expect(refused).toMatchObject({ type: FailureType.ModelBadRequest, nonRetryable: true });
    expect(refused.message).toContain('specification v3');
  });
});

describe('AI SDK adapter with MockLanguageModelV4: cancellation when the model ignores its abort signal', () => {
  it('a doStream that never settles, and a stream that never ends, both give up with the signal reason at once', async () => {
    const { MockLanguageModelV4 } = await load();
    const stuck = createAiSdkProvider(
      new MockLanguageModelV4({ modelId: 'mock-model', doStream: () => new Promise(() => {}) }),
    );
    const first = new AbortController();
    const pending = stuck.complete(request(), first.signal);
    setTimeout(() => first.abort(new Error('activity cancelled')), 20);
    await expect(pending).rejects.toThrow('activity cancelled');

    const silent = new ReadableStream<AiSdkStreamPart>({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'text-start', id: 't' });
        controller.enqueue({ type: 'text-delta', id: 't', delta: 'Hel' });
      },
    });
    const hanging = createAiSdkProvider(
      new MockLanguageModelV4({ modelId: 'mock-model', doStream: { stream: silent } }),
    );
    const second = new AbortController();
    const seen = recordingHooks();
    const running = hanging.complete(request(), second.signal, seen.hooks);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen.text()).toEqual(['Hel']);
    const abortedAt = Date.now();
    second.abort(new Error('cancelled mid-stream'));
    await expect(running).rejects.toThrow('cancelled mid-stream');
    expect(Date.now() - abortedAt).toBeLessThan(500);
  });
});
