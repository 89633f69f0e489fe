import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it, vi } from 'vitest';
import type { ModelRequest } from '../../../src/domain';
import { hang, text } from '../../../src/testing/openai';
import { modelRequest, useOpenAIProviderOnFakeServer, waitFor } from './fixtures';

describe.each([
  ['streamed', true],
  ['not streamed', false],
])('openai-compatible provider cancellation, %s', (_label, stream) => {
  const fake = useOpenAIProviderOnFakeServer({ stream });

  async function cancelWhileWaiting(): Promise<{ error: unknown; elapsedMs: number }> {
    const env = new MockActivityEnvironment();
    const activity = async (request: ModelRequest) => {
      const context = Context.current();
      return fake.provider.complete(request, context.cancellationSignal, { heartbeat: () => context.heartbeat() });
    };
    const outcome = env.run(activity, modelRequest()).then(
      () => undefined,
      (e: unknown) => e,
    );
    await waitFor(() => fake.server.requests.length === 1);
    const cancelledAt = Date.now();
    env.cancel();
    const error = await outcome;
    return { error, elapsedMs: Date.now() - cancelledAt };
  }

  it('a hanging server: surfaces the CancelledFailure within 2 s and aborts the HTTP call', async () => {
    fake.server.append([hang()]);
    const { error, elapsedMs } = await cancelWhileWaiting();
    expect(error).toBeInstanceOf(CancelledFailure);
    expect(error).not.toBeInstanceOf(ApplicationFailure);
    expect(elapsedMs).toBeLessThan(2000);
    await waitFor(() => fake.server.requests[0]?.clientAborted === true);
    expect(fake.server.requests[0]?.status).toBeUndefined();
  });

  it('a slow reply: the answer never arrives once cancelled', async () => {
    fake.server.append([text('too late', { delayMs: 10_000 })]);
    const { error, elapsedMs } = await cancelWhileWaiting();
    expect(error).toBeInstanceOf(CancelledFailure);
    expect(elapsedMs).toBeLessThan(2000);
  });
});

describe('openai-compatible provider keep-alive heartbeats', () => {
  const fake = useOpenAIProviderOnFakeServer({ stream: false });

  it('heartbeats every 5 s while waiting for a slow reply, and stops when it ends', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      fake.server.append([text('slow but fine', { delayMs: 50 })]);
      let heartbeats = 0;
      const pending = fake.complete(modelRequest(), { heartbeat: () => void (heartbeats += 1) });
      await waitFor(() => fake.server.requests.length === 1);
      vi.advanceTimersByTime(4_999);
      expect(heartbeats).toBe(0);
      vi.advanceTimersByTime(10_001);
      expect(heartbeats).toBe(3);
      expect((await pending).content).toEqual([{ type: 'text', text: 'slow but fine' }]);
      vi.advanceTimersByTime(60_000);
      expect(heartbeats).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
