import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/domain';
import { hang, text, type FakeBrokenReply } from '../../src/testing';
import { modelRequest, rejectionOf, useProviderOnFakeServer, waitFor } from './fixtures';

describe.each([
  ['streamed', true],
  ['not streamed', false],
])('anthropic provider, %s: cancellation of a hung call', (_mode, stream) => {
  const fake = useProviderOnFakeServer({ stream });

  /** Runs the provider as an activity would: cancellation signal and heartbeats from the Context. */
  function runInActivity(env: MockActivityEnvironment, deltas: string[] = []) {
    return env.run(async (request: ModelRequest) => {
      const context = Context.current();
      return fake.provider.complete(request, context.cancellationSignal, {
        heartbeat: () => context.heartbeat(),
        onTextDelta: (delta) => deltas.push(delta),
      });
    }, modelRequest());
  }

  async function cancelWhen(env: MockActivityEnvironment, running: Promise<unknown>, ready: () => boolean) {
    const outcome = rejectionOf(running);
    await waitFor(ready);
    const cancelledAt = Date.now();
    env.cancel();
    const error = await outcome;
    return { error, elapsedMs: Date.now() - cancelledAt };
  }

  it('a server that never answers: CancelledFailure within 2 s, and the HTTP request is aborted', async () => {
    fake.server.append([hang()]);
    const env = new MockActivityEnvironment();
    const { error, elapsedMs } = await cancelWhen(env, runInActivity(env), () => fake.server.requests.length === 1);
    expect(error).toBeInstanceOf(CancelledFailure);
    expect(error).not.toBeInstanceOf(ApplicationFailure);
    expect(elapsedMs).toBeLessThan(2000);
    await waitFor(() => fake.server.requests[0]?.clientAborted === true);
    expect(fake.server.requests[0]?.status).toBeUndefined();
    fake.server.verify();
  });

  it('a reply that stalls after it began: CancelledFailure within 2 s', async () => {
    const stalled: FakeBrokenReply = hang({
      afterEvents: 5,
      reply: text('The weather in Paris is sunny and mild today.'),
    });
    fake.server.append([stalled]);
    const env = new MockActivityEnvironment();
    let heartbeats = 0;
    env.on('heartbeat', () => (heartbeats += 1));
    const deltas: string[] = [];
    const { error, elapsedMs } = await cancelWhen(env, runInActivity(env, deltas), () =>
      stream ? deltas.length === 2 : fake.server.requests[0]?.status === 200,
    );
    expect(error).toBeInstanceOf(CancelledFailure);
    expect(elapsedMs).toBeLessThan(2000);
    // Streamed: message_start, content_block_start and two text deltas arrived (the ping is dropped).
    expect(heartbeats).toBe(stream ? 4 : 0);
    await waitFor(() => fake.server.requests[0]?.clientAborted === true);
    expect(fake.server.requests[0]?.fault).toBe('hang after 5 events');
  });
});
