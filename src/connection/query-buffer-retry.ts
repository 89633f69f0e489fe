import { defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type GrpcRetryOptions } from '@temporalio/client';

type GrpcStatus = Parameters<GrpcRetryOptions['delayFunction']>[1];

/** gRPC's RESOURCE_EXHAUSTED. */
const RESOURCE_EXHAUSTED = 8;

/**
 * A refused query's retries: the first after 50 ms, each next 1.7 times longer up to 500 ms, ±20%;
 * with Temporal's 10 attempts in all, the last error comes about 3 s after the first.
 */
export const QUERY_BUFFER_RETRY = { firstDelayMs: 50, factor: 1.7, maxDelayMs: 500, jitter: 0.2 } as const;

/**
 * Whether Temporal refused a query because the run already holds as many as it buffers while a
 * workflow task is scheduled or running (`history.MaxBufferedQueryCount`, 1 by default).
 */
export function isQueryBufferFull(status: { code?: number; details?: string; message?: string }): boolean {
  return (
    status.code === RESOURCE_EXHAUSTED &&
    /consistent query buffer is full/i.test(`${status.details ?? ''} ${status.message ?? ''}`)
  );
}

/**
 * Temporal's gRPC retry options, except for a query refused because its run's query buffer is
 * full: that run is busy for the length of one workflow task (milliseconds), not rate limited, so
 * the retry comes after 50 ms rather than the 1.4-2 s Temporal's client waits after any
 * RESOURCE_EXHAUSTED. The number of attempts is Temporal's (10).
 */
export function queryBufferRetryOptions(): GrpcRetryOptions {
  const temporal = defaultGrpcRetryOptions();
  const { firstDelayMs, factor, maxDelayMs, jitter } = QUERY_BUFFER_RETRY;
  return {
    retryableDecider: temporal.retryableDecider,
    delayFunction(attempt: number, status: GrpcStatus): number {
      if (!isQueryBufferFull(status)) return temporal.delayFunction(attempt, status);
      return Math.min(maxDelayMs, firstDelayMs * factor ** (attempt - 1)) * (1 - jitter + Math.random() * 2 * jitter);
    },
  };
}

/** The interceptors a Thoughtline client Connection uses: `Connection.connect({ ..., interceptors: thoughtlineGrpcInterceptors() })`. */
export function thoughtlineGrpcInterceptors(): ReturnType<typeof makeGrpcRetryInterceptor>[] {
  return [makeGrpcRetryInterceptor(queryBufferRetryOptions())];
}
