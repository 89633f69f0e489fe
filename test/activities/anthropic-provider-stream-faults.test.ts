import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { FailureType } from '../../src/domain';
import { earlyEof, httpError, midStreamError, nonJsonError, socketReset, text } from '../../src/testing';
import { rejectionOf, useProviderOnFakeServer } from './fixtures';

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ApplicationFailure);
  return error as ApplicationFailure;
}

describe('anthropic provider, streamed: broken streams', () => {
  const fake = useProviderOnFakeServer({ stream: true });

  it.each([
    ['overloaded_error', FailureType.ModelOverloaded, false],
    ['api_error', FailureType.ModelServerError, false],
    ['rate_limit_error', FailureType.ModelRateLimited, false],
    ['timeout_error', FailureType.ModelTimeout, false],
    ['invalid_request_error', FailureType.ModelBadRequest, true],
    ['permission_error', FailureType.ModelPermissionDenied, true],
    ['some_future_error', FailureType.ModelStreamIncomplete, false],
  ])('an error event %s mid-stream is %s (nonRetryable %s)', async (errorType, type, nonRetryable) => {
    fake.server.append([midStreamError(errorType, { message: `the stream says ${errorType}` })]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(type);
    expect(failure.nonRetryable).toBe(nonRetryable);
    expect(failure.message).toBe(`Anthropic API stream error (${errorType}): the stream says ${errorType}`);
    expect(failure.details).toEqual([
      { apiErrorType: errorType, midStream: true, requestId: expect.stringMatching(/^req_01/) },
    ]);
    expect(fake.server.requests).toHaveLength(1);
    fake.server.verify();
  });

  it('EOF before message_stop is a retryable ModelStreamIncomplete, also when nothing but headers came', async () => {
    fake.server.append([earlyEof({ afterEvents: 6 }), earlyEof({ afterEvents: 0 })]);
    const cut = await failureOf(fake.complete());
    expect(cut.type).toBe(FailureType.ModelStreamIncomplete);
    expect(cut.nonRetryable).toBe(false);
    expect(cut.message).toMatch(
      /^Anthropic API stream ended before message_stop after 5 events: stream ended without producing a Message/,
    );
    const empty = await failureOf(fake.complete());
    expect(empty.type).toBe(FailureType.ModelStreamIncomplete);
    expect(empty.message).toMatch(/after 0 events: request ended without sending any chunks/);
  });

  it('EOF right before message_stop (stop reason already sent) is still incomplete', async () => {
    fake.server.append([earlyEof({ afterEvents: 1000 })]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelStreamIncomplete);
  });

  it('a connection reset mid-stream is a retryable ModelStreamIncomplete', async () => {
    fake.server.append([socketReset({ afterEvents: 4 })]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelStreamIncomplete);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toMatch(/after 3 events: terminated/);
  });

  it('a 200 that is not an event stream (a captive portal page, say) is incomplete, not a crash', async () => {
    fake.server.append([nonJsonError(200, { body: '<html>Please log in</html>' })]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelStreamIncomplete);
  });

  it('a 429 before the stream keeps its retry-after', async () => {
    fake.server.append([httpError(429, { retryAfter: 7 })]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelRateLimited);
    expect(failure.nextRetryDelay).toBe(7000);
  });
});

describe('anthropic provider, not streamed: broken replies', () => {
  const fake = useProviderOnFakeServer({ stream: false });

  it('an error type the stream would send as an event arrives as its HTTP error', async () => {
    fake.server.append([midStreamError('overloaded_error')]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelOverloaded);
    expect(failure.details).toEqual([{ status: 529, apiErrorType: 'overloaded_error', requestId: expect.any(String) }]);
  });

  it('a body cut short is a retryable ModelBadResponse', async () => {
    fake.server.append([earlyEof()]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelBadResponse);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toMatch(/^Anthropic API reply unreadable: /);
  });

  it('a connection reset mid-body is a retryable ModelConnectionError', async () => {
    fake.server.append([socketReset()]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelConnectionError);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toMatch(/^Anthropic API reply cut off: terminated/);
  });

  it('a 200 that is not JSON is a retryable ModelBadResponse', async () => {
    fake.server.append([nonJsonError(200, { body: '<html>Please log in</html>' })]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelBadResponse);
    expect(failure.message).toBe('Anthropic API reply is not a Message: "<html>Please log in</html>"');
  });
});

describe.each([
  ['streamed', true],
  ['not streamed', false],
])('anthropic provider, %s: faults before any answer', (_mode, stream) => {
  const fake = useProviderOnFakeServer({ stream });

  it('an HTML 502 from a proxy is a retryable ModelServerError with a clear message', async () => {
    fake.server.append([nonJsonError(502)]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelServerError);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toMatch(
      /^Anthropic API 502: non-JSON body \(text\/html\): "<html> <head><title>502 Bad Gateway<\/title>/,
    );
    expect(failure.details).toEqual([{ status: 502, nonJsonBody: true }]);
  });

  it('an empty 503 says so', async () => {
    fake.server.append([nonJsonError(503, { body: '', contentType: 'text/plain' })]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelServerError);
    expect(failure.message).toBe('Anthropic API 503: empty body (text/plain)');
  });

  it('a reset before any answer is a retryable ModelConnectionError', async () => {
    fake.server.append([socketReset({ afterEvents: 0 })]);
    const failure = await failureOf(fake.complete());
    expect(failure.type).toBe(FailureType.ModelConnectionError);
    expect(failure.nonRetryable).toBe(false);
  });

  it('the next attempt after a fault succeeds on the same provider', async () => {
    fake.server.append([socketReset(), text('recovered')]);
    await failureOf(fake.complete());
    expect((await fake.complete()).content).toEqual([{ type: 'text', text: 'recovered' }]);
    fake.server.verify();
  });
});
