import { defaultGrpcRetryOptions } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { isQueryBufferFull, queryBufferRetryOptions } from '../../../src/connection';

/** A status as the server sends one when a run already holds its buffer of queries (Temporal 1.2x). */
const bufferFull = {
  code: 8,
  details:
    'consistent query buffer is full, this may be caused by too many queries and workflow not able to process query fast enough',
  metadata: undefined as never,
};
const rateLimited = { code: 8, details: 'namespace rate limit exceeded', metadata: undefined as never };

describe('queryBufferRetryOptions', () => {
  it('retries a query refused for a full buffer after 40-60 ms, growing to at most 600 ms, where Temporal waits 1.36-2.04 s', () => {
    const ours = queryBufferRetryOptions();
    const temporal = defaultGrpcRetryOptions();
    for (let i = 0; i < 50; i++) {
      const first = ours.delayFunction(1, bufferFull);
      expect(first).toBeGreaterThanOrEqual(40);
      expect(first).toBeLessThanOrEqual(60);
      expect(ours.delayFunction(9, bufferFull)).toBeLessThanOrEqual(600);
      expect(temporal.delayFunction(1, bufferFull)).toBeGreaterThanOrEqual(1_360);
    }
    const total = Array.from({ length: 9 }, (_, i) => ours.delayFunction(i + 1, bufferFull)).reduce((a, b) => a + b);
    expect(total).toBeLessThan(3_600);
  });

  it("keeps Temporal's back-off for any other failure, and Temporal's bound on attempts", () => {
    const ours = queryBufferRetryOptions();
    expect(ours.delayFunction(1, rateLimited)).toBeGreaterThanOrEqual(1_360);
    expect(ours.retryableDecider(9, bufferFull)).toBe(true);
    expect(ours.retryableDecider(10, bufferFull)).toBe(false);
    expect(isQueryBufferFull(rateLimited)).toBe(false);
    expect(isQueryBufferFull({ code: 13, details: bufferFull.details })).toBe(false);
  });
});
