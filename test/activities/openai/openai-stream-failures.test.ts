import { describe, expect, it } from 'vitest';
import { FailureType } from '../../../src/domain';
import { streamError, text, toolUse } from '../../../src/testing/openai';
import { failureOf, modelRequest, useOpenAIProviderOnFakeServer, weatherTool } from './fixtures';

describe('openai-compatible provider, broken streams', () => {
  const fake = useOpenAIProviderOnFakeServer();

  it('EOF before any finish_reason is a retryable ModelStreamIncomplete, after the text seen so far', async () => {
    fake.server.append([text('Hello wor', { streamEnd: 'eof-before-finish', chunkSize: 3 })]);
    const deltas: string[] = [];
    const failure = await failureOf(fake.complete(modelRequest(), { onTextDelta: (d) => void deltas.push(d) }));
    expect(failure.type).toBe(FailureType.ModelStreamIncomplete);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toBe(
      'OpenAI-compatible API stream incomplete: the stream ended without a finish_reason and data: [DONE]',
    );
    expect(deltas).toEqual(['Hel', 'lo ', 'wor']);
  });

  it('EOF after finish_reason but before [DONE] is incomplete too (usage may be missing)', async () => {
    fake.server.append([text('All here', { streamEnd: 'eof-before-done' })]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelStreamIncomplete);
    expect(failure.message).toContain('without data: [DONE]');
  });

  it('never returns a tool call whose arguments were cut off', async () => {
    fake.server.append([toolUse('get_weather', { city: 'Paris' }, { streamEnd: 'eof-before-finish', chunkSize: 2 })]);
    const failure = await failureOf(fake.complete(modelRequest({ tools: [weatherTool] })));
    expect(failure.type).toBe(FailureType.ModelStreamIncomplete);
  });

  it('[DONE] without any finish_reason is incomplete', async () => {
    fake.server.append([text('no reason given', { finishReason: null })]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelStreamIncomplete);
    expect(failure.message).toContain('without a finish_reason');
  });

  it('a connection reset mid-stream is a retryable ModelStreamIncomplete', async () => {
    fake.server.append([text('Half an ans', { streamEnd: 'reset' })]);
    const deltas: string[] = [];
    const failure = await failureOf(fake.complete(modelRequest(), { onTextDelta: (d) => void deltas.push(d) }));
    expect(failure.type).toBe(FailureType.ModelStreamIncomplete);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toMatch(/the connection broke mid-stream/);
    expect(deltas.join('')).toBe('Half an ans');
  });

  it('a mid-stream error chunk without an HTTP-like code is retryable, with its message', async () => {
    fake.server.append([
      streamError(
        { message: 'The server had an error while processing your request', type: 'server_error' },
        { partialText: 'So far' },
      ),
    ]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelStreamIncomplete);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toBe(
      'OpenAI-compatible API sent an error instead of a reply: The server had an error while processing your request',
    );
    expect(failure.details).toEqual([{ status: 200, apiErrorType: 'server_error' }]);
  });

  it('a mid-stream error chunk with code 400 (vLLM, llama.cpp) is a non-retryable ModelBadRequest', async () => {
    fake.server.append([streamError({ message: 'context length exceeded', type: 'BadRequestError', code: 400 })]);
    const failure = await failureOf(fake.complete());
    expect([failure.type, failure.nonRetryable]).toEqual([FailureType.ModelBadRequest, true]);
    expect(failure.message).toContain('context length exceeded');
  });

  it('a mid-stream error chunk with code 429 is rate limiting', async () => {
    fake.server.append([streamError({ message: 'slow down', code: 429 })]);
    const failure = await failureOf(fake.complete());
    expect([failure.type, failure.nonRetryable]).toEqual([FailureType.ModelRateLimited, false]);
  });
});
