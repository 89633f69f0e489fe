import { FailureType } from '../../../src/domain';
import {
  earlyEof,
  hang,
  httpError,
  midStreamError,
  nonJsonError,
  socketReset,
  type FakeReply,
} from '../../../src/testing';
import type { SeededRandom } from './seeded-random';

/** A start-to-close timeout: no ApplicationFailure type, Temporal's own TimeoutFailure. */
export const TIMED_OUT = 'StartToCloseTimeout';

/**
 * One fault the fake Messages server answers with, and what the run must make of it: the
 * FailureType the Anthropic provider classifies it as (streamed or not), and whether Temporal
 * may retry it. `retryAfterMs` is the wait the server asks for (Temporal's nextRetryDelay).
 */
export interface Fault {
  label: string;
  reply: FakeReply;
  type: string;
  retryable: boolean;
  retryAfterMs?: number;
  /** Answers nothing: only the model call's start-to-close timeout ends the attempt. */
  hangs?: boolean;
  /** Text the run's error must quote (fatal faults carry the API's message). */
  message?: string;
}

const byMode = (stream: boolean, streamed: string, plain: string): string => (stream ? streamed : plain);

/** Faults a retry can get past: rate limits, overload, 5xx, dropped and cut connections, hangs. */
export function retryableFault(r: SeededRandom, stream: boolean): Fault {
  const kind = r.pick([
    '429',
    '529',
    '500',
    '502-html',
    'reset-before',
    'reset-mid',
    'eof',
    'overloaded-event',
    'hang-before',
    'hang-mid',
  ] as const);
  switch (kind) {
    case '429': {
      const retryAfterMs = r.int(50, 400);
      return {
        label: `429 retry-after-ms ${retryAfterMs}`,
        reply: httpError(429, { retryAfterMs }),
        type: FailureType.ModelRateLimited,
        retryable: true,
        retryAfterMs,
      };
    }
    case '529': {
      // The real API sends 529s with and without retry-after; without, Temporal's backoff applies.
      const retryAfterMs = r.chance(0.5) ? r.int(50, 400) : undefined;
      const reply = httpError(529, retryAfterMs === undefined ? {} : { retryAfterMs });
      return {
        label: `529${retryAfterMs === undefined ? '' : ` retry-after-ms ${retryAfterMs}`}`,
        reply,
        type: FailureType.ModelOverloaded,
        retryable: true,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    }
    case '500':
      return { label: '500', reply: httpError(500), type: FailureType.ModelServerError, retryable: true };
    case '502-html':
      return {
        label: 'proxy 502 (HTML)',
        reply: nonJsonError(502),
        type: FailureType.ModelServerError,
        retryable: true,
      };
    case 'reset-before':
      return {
        label: 'reset before any answer',
        reply: socketReset({ afterEvents: 0 }),
        type: FailureType.ModelConnectionError,
        retryable: true,
      };
    case 'reset-mid':
      return {
        label: 'reset mid-reply',
        reply: socketReset(),
        type: byMode(stream, FailureType.ModelStreamIncomplete, FailureType.ModelConnectionError),
        retryable: true,
      };
    case 'eof':
      return {
        label: 'early EOF',
        reply: earlyEof(),
        type: byMode(stream, FailureType.ModelStreamIncomplete, FailureType.ModelBadResponse),
        retryable: true,
      };
    case 'overloaded-event':
      return {
        label: 'overloaded_error mid-stream',
        reply: midStreamError('overloaded_error'),
        type: FailureType.ModelOverloaded,
        retryable: true,
      };
    case 'hang-before':
      return { label: 'hang before any answer', reply: hang(), type: TIMED_OUT, retryable: true, hangs: true };
    case 'hang-mid':
      return {
        label: 'hang mid-reply',
        reply: hang({ afterEvents: 4 }),
        type: TIMED_OUT,
        retryable: true,
        hangs: true,
      };
  }
}

/** Faults no retry can fix: the request, the key or the account is at fault, or the server says so. */
export function fatalFault(r: SeededRandom, marker: string): Fault {
  const kind = r.pick(['400', '401', '402', '403', '404', '413', '529-no-retry', 'invalid-request-event'] as const);
  // The API's message, with a tab and a bell in it: the run's error must carry it through intact.
  const message = `${marker}: refused\tby the fake API\u0007`;
  const http = (status: number, type: string): Fault => ({
    label: `${status}`,
    reply: httpError(status, { message }),
    type,
    retryable: false,
    message,
  });
  switch (kind) {
    case '400':
      return http(400, FailureType.ModelBadRequest);
    case '401':
      return http(401, FailureType.ModelAuthentication);
    case '402':
      return http(402, FailureType.ModelBadRequest);
    case '403':
      return http(403, FailureType.ModelPermissionDenied);
    case '404':
      return http(404, FailureType.ModelNotFound);
    case '413':
      return http(413, FailureType.ModelRequestTooLarge);
    case '529-no-retry':
      return {
        label: '529 x-should-retry: false',
        reply: httpError(529, { message, shouldRetry: false }),
        type: FailureType.ModelOverloaded,
        retryable: false,
        message,
      };
    case 'invalid-request-event':
      return {
        label: 'invalid_request_error mid-stream',
        reply: midStreamError('invalid_request_error', { message }),
        type: FailureType.ModelBadRequest,
        retryable: false,
        message,
      };
  }
}
