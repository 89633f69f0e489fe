import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { FailureType, type ModelMessage, type ModelRequest } from '../../../src/domain';
import {
  earlyEof,
  hang,
  httpError,
  message,
  midStreamError,
  text,
  textBlock,
  thinkingBlock,
  toolUseBlock,
} from '../../../src/testing';
import { anthropicRequest, failureOf, recordingHooks, useAnthropicAdapter, waitFor, weatherTool } from './fixtures';

describe('AI SDK adapter over @ai-sdk/anthropic (provider object, fake Messages server, real HTTP)', () => {
  const fake = useAnthropicAdapter();

  it('takes the model id from the request and reports cache reads and writes apart from input', async () => {
    fake.server.append([
      text('Sunny.', {
        usage: { input_tokens: 12, output_tokens: 4, cache_creation_input_tokens: 300, cache_read_input_tokens: 900 },
      }),
    ]);
    const reply = await fake.complete({ model: 'claude-haiku-4-5' });
    expect(reply).toMatchObject({
      content: [{ type: 'text', text: 'Sunny.' }],
      stopReason: 'end_turn',
      model: 'claude-haiku-4-5',
      usage: { inputTokens: 12, outputTokens: 4, cacheReadTokens: 900, cacheWriteTokens: 300 },
    });
    expect(fake.server.requests[0]!.body).toMatchObject({
      model: 'claude-haiku-4-5',
      stream: true,
      max_tokens: 1024,
      system: [{ type: 'text', text: 'You are a careful assistant.' }],
    });
  });

  it('stop_sequence and max_tokens keep their meaning', async () => {
    fake.server.append([
      text('Thought: look it up', { stopReason: 'stop_sequence' }),
      text('Thought: I', { stopReason: 'max_tokens' }),
    ]);
    expect((await fake.complete({ stopSequences: ['\nObservation:'] })).stopReason).toBe('stop_sequence');
    expect((await fake.complete({ maxTokens: 3 })).stopReason).toBe('max_tokens');
    expect(fake.server.requests[0]!.body).toMatchObject({ stop_sequences: ['\nObservation:'] });
    expect(fake.server.requests[1]!.body).toMatchObject({ max_tokens: 3 });
  });

  it('extended thinking streams to onThinkingDelta and goes back with its signature next turn', async () => {
    fake.server.append([
      message([
        thinkingBlock('Paris weather needs a lookup.', 'sig-123'),
        textBlock('Checking.'),
        toolUseBlock('get_weather', { city: 'Paris' }, 'toolu_1'),
      ]),
      text('Sunny.'),
    ]);
    const seen = recordingHooks();
    const first = await fake.complete({ tools: [weatherTool] }, seen.hooks);
    expect(first.stopReason).toBe('tool_use');
    expect(first.content).toEqual([
      { type: 'thinking', thinking: 'Paris weather needs a lookup.', signature: 'sig-123' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(
      seen.log
        .filter((e) => e.startsWith('thinking:'))
        .join('')
        .replace(/thinking:/g, ''),
    ).toBe('Paris weather needs a lookup.');
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: 'no data', isError: true }] },
    ];
    await fake.complete({ tools: [weatherTool], messages });
    const sent = fake.server.requests[1]!.body!.messages;
    expect(sent[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Paris weather needs a lookup.', signature: 'sig-123' },
        { type: 'text', text: 'Checking.' },
        expect.objectContaining({ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }),
      ],
    });
    expect(sent[2]).toEqual({
      role: 'user',
      content: [
        expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_1', content: 'no data', is_error: true }),
      ],
    });
  });

  it('a seed, which Anthropic cannot take, fails as ModelSettingUnsupported, non-retryable', async () => {
    fake.server.append([text('never read')]);
    const failure = await failureOf(fake.complete({ sampling: { seed: 7 } }));
    expect(failure).toMatchObject({ type: FailureType.ModelSettingUnsupported, nonRetryable: true });
    expect(failure.message).toBe(
      'anthropic-ai-sdk/claude-sonnet-4-6 does not take seed; remove it from the run, the registry entry or the ask_model call.',
    );
  });

  it('529 with retry-after-ms is ModelOverloaded, retryable after that delay', async () => {
    fake.server.append([httpError(529, { retryAfterMs: 750 })]);
    const failure = await failureOf(fake.complete());
    expect(failure).toMatchObject({ type: FailureType.ModelOverloaded, nonRetryable: false, nextRetryDelay: 750 });
    expect(failure.message).toBe('anthropic-ai-sdk 529: Overloaded');
  });

  it('a mid-stream overloaded_error event is retryable; an invalid_request_error event is not', async () => {
    fake.server.append([midStreamError('overloaded_error'), midStreamError('invalid_request_error')]);
    const overloaded = await failureOf(fake.complete());
    expect(overloaded).toMatchObject({ type: FailureType.ModelOverloaded, nonRetryable: false });
    expect(overloaded.message).toContain('Overloaded');
    const invalid = await failureOf(fake.complete());
    expect(invalid).toMatchObject({ type: FailureType.ModelBadRequest, nonRetryable: true });
  });

  it('a stream that ends before message_stop is ModelStreamIncomplete, retryable', async () => {
    fake.server.append([earlyEof()]);
    const failure = await failureOf(fake.complete());
    expect(failure).toMatchObject({ type: FailureType.ModelStreamIncomplete, nonRetryable: false });
  });
});

describe('AI SDK adapter: cancellation of a reply that stalls mid-stream (activity environment)', () => {
  const fake = useAnthropicAdapter();

  it('ends as CancelledFailure within 2 s after heartbeating, and the HTTP request is aborted', async () => {
    fake.server.append([hang({ afterEvents: 5, reply: text('The weather in Paris is sunny and mild today.') })]);
    const env = new MockActivityEnvironment();
    let heartbeats = 0;
    env.on('heartbeat', () => (heartbeats += 1));
    const deltas: string[] = [];
    const running = env.run(async (request: ModelRequest) => {
      const context = Context.current();
      return fake.provider.complete(request, context.cancellationSignal, {
        heartbeat: () => context.heartbeat(),
        onTextDelta: (delta) => deltas.push(delta),
      });
    }, anthropicRequest());
    const outcome = running.then(
      () => undefined,
      (error: unknown) => error,
    );
    await waitFor(() => deltas.length >= 1);
    const cancelledAt = Date.now();
    env.cancel();
    const error = await outcome;
    expect(error).toBeInstanceOf(CancelledFailure);
    expect(error).not.toBeInstanceOf(ApplicationFailure);
    expect(Date.now() - cancelledAt).toBeLessThan(2000);
    expect(heartbeats).toBeGreaterThan(0);
    await waitFor(() => fake.server.requests[0]?.clientAborted === true);
  });
});
