import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/activities/models/anthropic/anthropic-provider';
import { FailureType, type ModelRequest } from '../../src/domain';
import { httpError, startFakeMessagesServer, text } from '../../src/testing';
import { API_KEY, modelRequest, useProviderOnFakeServer, waitFor } from './fixtures';

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplicationFailure);
  return error as ApplicationFailure;
}

describe.each([
  ['streamed', true],
  ['not streamed', false],
])('%s', (_mode, stream) => {
  const fake = useProviderOnFakeServer({ stream });
  const complete = fake.complete;

  describe('anthropic provider errors', () => {
    it('429 with retry-after: retryable, nextRetryDelay in ms, sent once (no SDK retries)', async () => {
      fake.server.append([httpError(429, { retryAfter: 2, requestId: 'req_ratelimited' })]);
      const failure = await failureOf(complete());
      expect(failure.type).toBe(FailureType.ModelRateLimited);
      expect(failure.nonRetryable).toBe(false);
      expect(failure.nextRetryDelay).toBe(2000);
      expect(failure.details).toEqual([
        { status: 429, apiErrorType: 'rate_limit_error', requestId: 'req_ratelimited' },
      ]);
      expect(fake.server.requests).toHaveLength(1);
      fake.server.verify();
    });

    it('429 with retry-after-ms', async () => {
      fake.server.append([httpError(429, { retryAfterMs: 1500 })]);
      const failure = await failureOf(complete());
      expect(failure.nextRetryDelay).toBe(1500);
    });

    it.each([
      [401, FailureType.ModelAuthentication, 'invalid x-api-key'],
      [400, FailureType.ModelBadRequest, 'messages: text content blocks must be non-empty'],
    ])('%i is non-retryable with the API message', async (status, type, message) => {
      fake.server.append([httpError(status, { message })]);
      const failure = await failureOf(complete());
      expect(failure.type).toBe(type);
      expect(failure.nonRetryable).toBe(true);
      expect(failure.message).toBe(`Anthropic API ${status}: ${message}`);
      expect(failure.nextRetryDelay).toBeUndefined();
    });

    it('keeps the API key out of the failure even if the API message echoes it', async () => {
      fake.server.append([httpError(401, { message: `invalid x-api-key: ${API_KEY}` })]);
      const failure = await failureOf(complete());
      expect(failure.message).toBe('Anthropic API 401: invalid x-api-key: sk-ant-[redacted]');
      expect(JSON.stringify(failure.details)).not.toContain(API_KEY);
    });

    it.each([
      [529, FailureType.ModelOverloaded],
      [500, FailureType.ModelServerError],
    ])('%i is retryable', async (status, type) => {
      fake.server.append([httpError(status)]);
      const failure = await failureOf(complete());
      expect(failure.type).toBe(type);
      expect(failure.nonRetryable).toBe(false);
    });

    it('obeys x-should-retry: false on a 529', async () => {
      fake.server.append([httpError(529, { shouldRetry: false, retryAfter: 5 })]);
      const failure = await failureOf(complete());
      expect(failure.type).toBe(FailureType.ModelOverloaded);
      expect(failure.nonRetryable).toBe(true);
      expect(failure.nextRetryDelay).toBeUndefined();
    });

    it('a refused connection is a retryable ModelConnectionError', async () => {
      const closed = await startFakeMessagesServer();
      await closed.close();
      const failure = await failureOf(
        createAnthropicProvider({ apiKey: API_KEY, baseURL: closed.baseUrl, stream }).complete(
          modelRequest(),
          new AbortController().signal,
        ),
      );
      expect(failure.type).toBe(FailureType.ModelConnectionError);
      expect(failure.nonRetryable).toBe(false);
    });
  });

  describe('anthropic provider cancellation', () => {
    it('surfaces the activity CancelledFailure and aborts the HTTP call', async () => {
      fake.server.append([text('too late', { delayMs: 10_000 })]);
      const env = new MockActivityEnvironment();
      const running = env.run(
        async (request: ModelRequest) => fake.provider.complete(request, Context.current().cancellationSignal),
        modelRequest(),
      );
      const outcome = running.then(
        () => undefined,
        (e: unknown) => e,
      );
      await waitFor(() => fake.server.requests.length === 1);
      env.cancel();
      const error = await outcome;
      expect(error).toBeInstanceOf(CancelledFailure);
      expect(error).not.toBeInstanceOf(ApplicationFailure);
      await waitFor(() => fake.server.requests[0]?.clientAborted === true);
      expect(fake.server.requests[0]?.status).toBeUndefined();
    });
  });
});
