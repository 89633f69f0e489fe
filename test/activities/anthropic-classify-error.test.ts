import {
  AnthropicError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { classifyAnthropicError } from '../../src/activities/models/anthropic/anthropic-classify-error';
import { retryDelayMs } from '../../src/activities/models/retry-delay';
import { FailureType } from '../../src/domain';

/** The same construction the SDK uses for an HTTP error response. */
function apiError(
  status: number,
  message = 'boom',
  headers: Record<string, string> = {},
  type = 'api_error',
): APIError {
  return APIError.generate(status, { type: 'error', error: { type, message } }, undefined, new Headers(headers));
}

describe('classifyAnthropicError by status', () => {
  it.each([
    [400, FailureType.ModelBadRequest, true],
    [401, FailureType.ModelAuthentication, true],
    [403, FailureType.ModelPermissionDenied, true],
    [404, FailureType.ModelNotFound, true],
    [413, FailureType.ModelRequestTooLarge, true],
    [402, FailureType.ModelBadRequest, true],
    [408, FailureType.ModelTimeout, false],
    [409, FailureType.ModelConflict, false],
    [429, FailureType.ModelRateLimited, false],
    [500, FailureType.ModelServerError, false],
    [503, FailureType.ModelServerError, false],
    [529, FailureType.ModelOverloaded, false],
  ])('%i → %s, nonRetryable %s', (status, type, nonRetryable) => {
    const failure = classifyAnthropicError(apiError(status, 'the API says why'));
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure.type).toBe(type);
    expect(failure.nonRetryable).toBe(nonRetryable);
    expect(failure.message).toBe(`Anthropic API ${status}: the API says why`);
  });

  it('x-should-retry overrides the status both ways', () => {
    expect(classifyAnthropicError(apiError(500, 'x', { 'x-should-retry': 'false' })).nonRetryable).toBe(true);
    expect(classifyAnthropicError(apiError(429, 'x', { 'x-should-retry': 'false' })).nonRetryable).toBe(true);
    expect(classifyAnthropicError(apiError(400, 'x', { 'x-should-retry': 'true' })).nonRetryable).toBe(false);
  });

  it('puts status, API error type and request-id in details', () => {
    const failure = classifyAnthropicError(
      apiError(529, 'Overloaded', { 'request-id': 'req_abc' }, 'overloaded_error'),
    );
    expect(failure.details).toEqual([{ status: 529, apiErrorType: 'overloaded_error', requestId: 'req_abc' }]);
    expect(classifyAnthropicError(apiError(500)).details).toEqual([{ status: 500, apiErrorType: 'api_error' }]);
  });

  it('never lets a key-shaped string through', () => {
    const failure = classifyAnthropicError(apiError(401, 'bad key sk-ant-api03-SECRETvalue_123'));
    expect(failure.message).not.toContain('SECRETvalue');
    expect(JSON.stringify(failure.details)).not.toContain('SECRETvalue');
  });
});

describe('classifyAnthropicError retry delays', () => {
  it('retry-after-ms wins over retry-after', () => {
    expect(
      classifyAnthropicError(apiError(429, 'x', { 'retry-after-ms': '250', 'retry-after': '9' })).nextRetryDelay,
    ).toBe(250);
  });

  it('retry-after in seconds', () => {
    expect(classifyAnthropicError(apiError(529, 'x', { 'retry-after': '1.5' })).nextRetryDelay).toBe(1500);
  });

  it('retry-after as an HTTP date, relative to now', () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    const failure = classifyAnthropicError(apiError(429, 'x', { 'retry-after': 'Fri, 20 Nov 2026 10:00:30 GMT' }), {
      now,
    });
    expect(failure.nextRetryDelay).toBe(30_000);
  });

  it('ignores unusable values and never sets a delay on a non-retryable failure', () => {
    expect(retryDelayMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryDelayMs(new Headers({ 'retry-after': '0' }))).toBeUndefined();
    expect(
      retryDelayMs(new Headers({ 'retry-after': 'Fri, 20 Nov 2026 09:00:00 GMT' }), Date.parse('2026-11-20T10:00:00Z')),
    ).toBeUndefined();
    expect(classifyAnthropicError(apiError(400, 'x', { 'retry-after': '3' })).nextRetryDelay).toBeUndefined();
  });
});

describe('classifyAnthropicError without a response', () => {
  it.each([
    ['APIConnectionError', new APIConnectionError({ message: 'Connection error.' })],
    ['APIConnectionTimeoutError', new APIConnectionTimeoutError()],
    ['APIUserAbortError', new APIUserAbortError()],
  ])('%s → retryable ModelConnectionError', (_name, error) => {
    const failure = classifyAnthropicError(error);
    expect(failure.type).toBe(FailureType.ModelConnectionError);
    expect(failure.nonRetryable).toBe(false);
  });

  it('an SDK-side validation error is a non-retryable ModelBadRequest', () => {
    const failure = classifyAnthropicError(
      new AnthropicError('Streaming is required for operations that may take longer than 10 minutes.'),
    );
    expect(failure.type).toBe(FailureType.ModelBadRequest);
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toMatch(/Streaming is required/);
  });

  it('a missing credential is a non-retryable ModelAuthentication', () => {
    const failure = classifyAnthropicError(
      new Error('Could not resolve authentication method. Expected one of apiKey, authToken, ...'),
    );
    expect(failure.type).toBe(FailureType.ModelAuthentication);
    expect(failure.nonRetryable).toBe(true);
  });

  it('passes an ApplicationFailure through unchanged', () => {
    const original = ApplicationFailure.create({ type: FailureType.ModelBadRequest, nonRetryable: true, message: 'x' });
    expect(classifyAnthropicError(original)).toBe(original);
  });
});

describe('classifyAnthropicError for broken replies', () => {
  it('an error event inside a stream (APIError without status, built as the SDK does) is classified by its type', () => {
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    const event = new APIError(
      undefined,
      body,
      undefined,
      new Headers({ 'request-id': 'req_stream' }),
      'overloaded_error',
    );
    const failure = classifyAnthropicError(event);
    expect(failure.type).toBe(FailureType.ModelOverloaded);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).toBe('Anthropic API stream error (overloaded_error): Overloaded');
    expect(failure.details).toEqual([{ apiErrorType: 'overloaded_error', midStream: true, requestId: 'req_stream' }]);
  });

  it('a non-JSON error body (as the SDK builds it) is classified by status and quoted briefly', () => {
    const page = `<html><body>${'x'.repeat(500)}</body></html>`;
    const error = APIError.generate(502, undefined, page, new Headers({ 'content-type': 'text/html' }));
    const failure = classifyAnthropicError(error);
    expect(failure.type).toBe(FailureType.ModelServerError);
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message.length).toBeLessThan(220);
    expect(failure.message).toMatch(/^Anthropic API 502: non-JSON body \(text\/html\): "<html><body>x+…"$/);
  });

  it('a body read that fails (fetch TypeError) is a retryable ModelConnectionError; unparseable JSON a retryable ModelBadResponse', () => {
    const dropped = classifyAnthropicError(new TypeError('terminated', { cause: new Error('other side closed') }));
    expect(dropped.type).toBe(FailureType.ModelConnectionError);
    expect(dropped.nonRetryable).toBe(false);
    expect(dropped.message).toBe('Anthropic API reply cut off: terminated: other side closed');
    const garbled = classifyAnthropicError(new SyntaxError('Unexpected end of JSON input'));
    expect(garbled.type).toBe(FailureType.ModelBadResponse);
    expect(garbled.nonRetryable).toBe(false);
  });
});
