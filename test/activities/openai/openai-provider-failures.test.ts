import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../../src/activities/models/openai/openai-compatible-provider';
import { FailureType } from '../../../src/domain';
import { httpError, nonJsonError, socketReset, startFakeOpenAIServer, text } from '../../../src/testing/openai';
import { API_KEY, failureOf, modelRequest, useOpenAIProviderOnFakeServer } from './fixtures';

describe.each([
  ['streamed', true],
  ['not streamed', false],
])('openai-compatible provider HTTP errors, %s', (_label, stream) => {
  const fake = useOpenAIProviderOnFakeServer({ stream, apiKey: API_KEY, server: { apiKey: API_KEY } });
  const complete = fake.complete;

  it.each([
    [400, FailureType.ModelBadRequest, true],
    [401, FailureType.ModelAuthentication, true],
    [403, FailureType.ModelPermissionDenied, true],
    [404, FailureType.ModelNotFound, true],
    [413, FailureType.ModelRequestTooLarge, true],
    [422, FailureType.ModelBadRequest, true],
    [408, FailureType.ModelTimeout, false],
    [409, FailureType.ModelConflict, false],
    [429, FailureType.ModelRateLimited, false],
    [500, FailureType.ModelServerError, false],
    [502, FailureType.ModelServerError, false],
    [503, FailureType.ModelOverloaded, false],
  ])('%i is %s, nonRetryable %s, with the server message', async (status, type, nonRetryable) => {
    fake.server.append([
      httpError(status, { message: `problem ${status}`, code: 'some_code', headers: { 'x-request-id': 'req_abc' } }),
    ]);
    const failure = await failureOf(complete());
    expect(failure.type).toBe(type);
    expect(failure.nonRetryable).toBe(nonRetryable);
    expect(failure.message).toBe(`OpenAI-compatible API ${status}: problem ${status}`);
    expect(failure.nextRetryDelay).toBeUndefined();
    expect(failure.details).toEqual([
      { status, apiErrorType: expect.any(String), apiErrorCode: 'some_code', requestId: 'req_abc' },
    ]);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('429 with retry-after seconds → nextRetryDelay in ms', async () => {
    fake.server.append([httpError(429, { retryAfter: 2 })]);
    expect((await failureOf(complete())).nextRetryDelay).toBe(2000);
  });

  it('retry-after-ms wins over retry-after', async () => {
    fake.server.append([httpError(503, { retryAfterMs: 1500, retryAfter: 9 })]);
    expect((await failureOf(complete())).nextRetryDelay).toBe(1500);
  });

  it('retry-after as an HTTP date', async () => {
    fake.server.append([httpError(429, { retryAfter: new Date(Date.now() + 30_000).toUTCString() })]);
    const delay = Number((await failureOf(complete())).nextRetryDelay);
    expect(delay).toBeGreaterThan(25_000);
    expect(delay).toBeLessThanOrEqual(31_000);
  });

  it('x-should-retry: false makes a 503 final and drops its delay; true makes a 400 retryable', async () => {
    fake.server.append([httpError(503, { shouldRetry: false, retryAfter: 5 }), httpError(400, { shouldRetry: true })]);
    const first = await failureOf(complete());
    expect([first.type, first.nonRetryable, first.nextRetryDelay]).toEqual([
      FailureType.ModelOverloaded,
      true,
      undefined,
    ]);
    const second = await failureOf(complete());
    expect([second.type, second.nonRetryable]).toEqual([FailureType.ModelBadRequest, false]);
  });

  it.each([
    [
      '{error: "text"} (Ollama native)',
      { error: 'model "llama9" not found, try pulling it first' },
      'model "llama9" not found, try pulling it first',
    ],
    [
      'top-level message (older vLLM)',
      { object: 'error', message: 'maximum context length is 4096', type: 'BadRequestError', code: 400 },
      'maximum context length is 4096',
    ],
    ['FastAPI detail', { detail: 'Not Found' }, 'Not Found'],
  ])('reads the error message from %s', async (_shape, body, expected) => {
    fake.server.append([httpError(400, { body })]);
    expect((await failureOf(complete())).message).toBe(`OpenAI-compatible API 400: ${expected}`);
  });

  it('a non-JSON 502 from a proxy is a retryable server error with a clear message', async () => {
    fake.server.append([nonJsonError(502)]);
    const failure = await failureOf(complete());
    expect(failure.type).toBe(FailureType.ModelServerError);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toBe(
      'OpenAI-compatible API 502: unreadable body (text/html): <html><body><h1>502 Bad Gateway</h1></body></html>',
    );
  });

  it('a 200 that is not JSON is a retryable ModelBadResponse', async () => {
    fake.server.append([httpError(200, { body: 'Service starting…', headers: { 'content-type': 'text/plain' } })]);
    const failure = await failureOf(complete());
    expect(failure.type).toBe(FailureType.ModelBadResponse);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toContain('the body is not JSON (text/plain): Service starting…');
  });

  it('a 200 JSON body that is not a completion is a ModelBadResponse; one with no choices too', async () => {
    fake.server.append([
      httpError(200, { body: { hello: 'world' } }),
      httpError(200, { body: { model: 'm', choices: [] } }),
    ]);
    expect((await failureOf(complete())).type).toBe(FailureType.ModelBadResponse);
    expect((await failureOf(complete())).message).toContain('no choices');
  });

  it('a 200 carrying an {error} body is classified by its code', async () => {
    fake.server.append([
      httpError(200, { body: { error: { message: 'context too long', type: 'BadRequestError', code: 400 } } }),
    ]);
    const failure = await failureOf(complete());
    expect([failure.type, failure.nonRetryable]).toEqual([FailureType.ModelBadRequest, true]);
    expect(failure.message).toContain('context too long');
  });

  it('keeps the API key out of the failure even if the server echoes it', async () => {
    fake.server.append([httpError(401, { message: `Incorrect API key provided: ${API_KEY}` })]);
    const failure = await failureOf(complete());
    expect(failure.message).toBe('OpenAI-compatible API 401: Incorrect API key provided: [REDACTED]');
    expect(JSON.stringify(failure)).not.toContain(API_KEY);
  });

  it('a wrong key gets the server 401 as ModelAuthentication', async () => {
    fake.server.append([text('kept for the right key')]);
    const wrong = createOpenAICompatibleProvider({
      baseURL: fake.server.baseUrl,
      apiKey: 'sk-wrong-key-000000000',
      stream,
    });
    const failure = await failureOf(wrong.complete(modelRequest(), new AbortController().signal));
    expect([failure.type, failure.nonRetryable]).toEqual([FailureType.ModelAuthentication, true]);
    expect(failure.message).toBe('OpenAI-compatible API 401: Incorrect API key provided');
    // The scripted entry was not consumed: it is still there for the right key.
    expect((await complete()).content).toEqual([{ type: 'text', text: 'kept for the right key' }]);
  });

  it('a connection reset before any response is a retryable ModelConnectionError', async () => {
    fake.server.append([socketReset()]);
    const failure = await failureOf(complete());
    expect([failure.type, failure.nonRetryable]).toEqual([FailureType.ModelConnectionError, false]);
    expect(failure.message).toMatch(/^OpenAI-compatible API connection failed: /);
  });
});

describe('openai-compatible provider transport errors', () => {
  it('a refused connection is a retryable ModelConnectionError naming the cause', async () => {
    const closed = await startFakeOpenAIServer();
    await closed.close();
    const provider = createOpenAICompatibleProvider({ baseURL: closed.baseUrl });
    const failure = await failureOf(provider.complete(modelRequest(), new AbortController().signal));
    expect(failure.type).toBe(FailureType.ModelConnectionError);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toContain('ECONNREFUSED');
  });

  it('a URL fetch cannot use is a non-retryable ModelBadRequest without the credentials in it', async () => {
    const provider = createOpenAICompatibleProvider({ baseURL: 'http://user:s3cret-pass@127.0.0.1:9/v1' });
    const failure = await failureOf(provider.complete(modelRequest(), new AbortController().signal));
    expect([failure.type, failure.nonRetryable]).toEqual([FailureType.ModelBadRequest, true]);
    expect(failure.message).not.toContain('s3cret-pass');
  });
});
