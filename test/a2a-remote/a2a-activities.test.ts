import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ActivityCancellationDetails, ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createA2aActivities, type A2aActivityDeps, type RemoteSent } from '../../src/activities/a2a/a2a-activities';
import { FailureType } from '../../src/domain';
import { createRedactor } from '../../src/tools/redact-secrets';
import { startMinimalA2aServer, type MinimalA2aServer } from './minimal-a2a-server';

/**
 * The two activities against a minimal A2A agent made of the SDK's own server pieces: a send
 * that repeats its message id starts no second task, the await reads the answer and the spend a
 * Thoughtline server reports, and every failure leaves classified (retryable or not) with a
 * message that says why.
 */
const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function agent(options: { token?: string } = {}): Promise<MinimalA2aServer> {
  const server = await startMinimalA2aServer(options);
  servers.push(server);
  return server;
}

const activitiesFor = (deps: Partial<A2aActivityDeps> = {}) =>
  createA2aActivities({
    redact: createRedactor(['sk-live-secret']),
    pollMs: { first: 20, max: 50, late: 50, lateAfter: 1_000 },
    ...deps,
  });

/** The failures below are expected: the environment's logger would print each at WARN. */
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const mockEnv = () => new MockActivityEnvironment(undefined, { logger: quiet });
const run = <T>(fn: () => Promise<T>, env = mockEnv()): Promise<T> => env.run(fn);

const send = (acts: ReturnType<typeof activitiesFor>, card: string, messageId = 'wf-1:call_1') =>
  run(() => acts.a2aSend({ agent: 'remote', card, messageId, text: 'Summarise the report', maxChars: 1_000 }));

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}

describe('a2aSend and a2aAwait', () => {
  it('sends once per message id and reads the answer with its reported spend', async () => {
    const server = await agent();
    const acts = activitiesFor({ settings: { allow: [server.origin] } });
    const first = (await send(acts, server.cardUrl)) as Extract<RemoteSent, { kind: 'task' }>;
    expect(first).toMatchObject({ kind: 'task', state: 'working' });
    // A retried send (same message id) is the same task: the agent started one.
    const again = await send(acts, server.cardUrl);
    expect(again).toMatchObject({ kind: 'task', taskId: first.taskId });
    expect(server.executions).toBe(1);
    expect(server.messageIds).toEqual(['wf-1:call_1', 'wf-1:call_1']);

    const awaited = run(() =>
      acts.a2aAwait({ agent: 'remote', card: server.cardUrl, taskId: first.taskId, maxChars: 30 }),
    );
    server.release({
      kind: 'answer',
      text: 'The report says revenue grew 12% (key sk-live-secret) over the last quarter.',
      thoughtline: { runId: 'run-b', costUsd: 0.0042, usage: { inputTokens: 120, outputTokens: 30 } },
    });
    const outcome = await awaited;
    expect(outcome).toMatchObject({
      state: 'completed',
      runId: 'run-b',
      costUsd: 0.0042,
      usage: { inputTokens: 120, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
    // Bounded and redacted, as any tool result.
    expect(outcome.text).not.toContain('sk-live-secret');
    expect(outcome.text).toMatch(/^The report says revenue grew 1\n\[cut: \d+ more characters/);
  });

  it('cancels a task that asks for input and says what it asked', async () => {
    const server = await agent();
    const acts = activitiesFor({ settings: { allow: [server.cardUrl] } });
    const sent = (await send(acts, server.cardUrl)) as Extract<RemoteSent, { kind: 'task' }>;
    server.release({ kind: 'ask', question: 'Which quarter?' });
    const outcome = await run(() =>
      acts.a2aAwait({ agent: 'remote', card: server.cardUrl, taskId: sent.taskId, maxChars: 1_000 }),
    );
    expect(outcome).toMatchObject({ state: 'input-required', text: 'Which quarter?', remoteCancelled: true });
    expect(server.cancelled).toEqual([sent.taskId]);
  });

  it('asks the remote to cancel its task when the activity is cancelled', async () => {
    const server = await agent();
    const acts = activitiesFor({ settings: { allow: [server.origin] } });
    const sent = (await send(acts, server.cardUrl)) as Extract<RemoteSent, { kind: 'task' }>;
    const env = mockEnv();
    const awaited = run(
      () => acts.a2aAwait({ agent: 'remote', card: server.cardUrl, taskId: sent.taskId, maxChars: 100 }),
      env,
    ).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    env.cancel();
    const err = await awaited;
    expect((err as Error).name).toBe('CancelledFailure');
    expect(server.cancelled).toEqual([sent.taskId]);
  });

  it('leaves the remote task alone when its worker shuts down: the retry follows it', async () => {
    const server = await agent();
    const acts = activitiesFor({ settings: { allow: [server.origin] } });
    const sent = (await send(acts, server.cardUrl)) as Extract<RemoteSent, { kind: 'task' }>;
    const env = mockEnv();
    const awaited = run(
      () => acts.a2aAwait({ agent: 'remote', card: server.cardUrl, taskId: sent.taskId, maxChars: 100 }),
      env,
    ).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    env.cancel('WORKER_SHUTDOWN', new ActivityCancellationDetails({ workerShutdown: true }));
    expect(await awaited).toBeInstanceOf(Error);
    expect(server.cancelled).toEqual([]);
  });

  it('refuses every remote agent without an allow-list, and cards off the list, non-retryably', async () => {
    const server = await agent();
    const none = await failureOf(send(activitiesFor(), server.cardUrl));
    expect(none).toMatchObject({ type: FailureType.RemoteAgentRefused, nonRetryable: true });
    expect(none.message).toMatch(/no A2A allow-list/);
    const other = await failureOf(
      send(activitiesFor({ settings: { allow: ['http://127.0.0.1:1/agent.json'] } }), server.cardUrl),
    );
    expect(other).toMatchObject({ type: FailureType.RemoteAgentRefused, nonRetryable: true });
    expect(other.message).toContain('is not on this worker');
    expect(server.messageIds).toEqual([]);
  });

  it('refuses a loopback host the list names only by name (the SSRF guard)', async () => {
    const server = await agent();
    const byName = server.cardUrl.replace('127.0.0.1', 'localhost');
    const acts = activitiesFor({
      settings: { allow: [new URL(byName).origin] },
      resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const refused = await failureOf(send(acts, byName));
    expect(refused).toMatchObject({ type: FailureType.RemoteAgentRefused, nonRetryable: true });
    expect(refused.message).toMatch(/127\.0\.0\.1 is a loopback address/);
    // Opened by allowAddresses, the card is read; the endpoint it names (another origin) is checked like the card.
    const resolveHost = async () => [{ address: '127.0.0.1', family: 4 }];
    const elsewhere = await failureOf(
      send(
        activitiesFor({
          settings: { allow: [new URL(byName).origin], allowAddresses: { localhost: ['127.0.0.1'] } },
          resolveHost,
        }),
        byName,
      ),
    );
    expect(elsewhere.message).toContain(`${server.origin} is not an origin on this worker's A2A allow-list`);
    const opened = activitiesFor({
      settings: { allow: [new URL(byName).origin, server.origin], allowAddresses: { localhost: ['127.0.0.1'] } },
      resolveHost,
    });
    await expect(send(opened, byName)).resolves.toMatchObject({ kind: 'task' });
  });

  it('sends the bearer token from the worker environment; 401 and a missing variable are non-retryable', async () => {
    const server = await agent({ token: 'tok-123' });
    const settings = { allow: [server.origin], auth: { [server.origin]: { bearerEnv: 'REMOTE_TOKEN' } } };
    const missing = await failureOf(send(activitiesFor({ settings, env: {} }), server.cardUrl));
    expect(missing).toMatchObject({ type: FailureType.RemoteAgentUnauthorized, nonRetryable: true });
    expect(missing.message).toContain('REMOTE_TOKEN, which is not set');
    const wrong = await failureOf(send(activitiesFor({ settings, env: { REMOTE_TOKEN: 'nope' } }), server.cardUrl));
    expect(wrong).toMatchObject({ type: FailureType.RemoteAgentUnauthorized, nonRetryable: true });
    expect(wrong.message).toContain('answered 401');
    await expect(
      send(activitiesFor({ settings, env: { REMOTE_TOKEN: 'tok-123' } }), server.cardUrl),
    ).resolves.toMatchObject({
      kind: 'task',
    });
    expect(server.authorizations.at(-1)).toBe('Bearer tok-123');
  });

  it('an unreachable host is retryable; a malformed card is not', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const down = `http://127.0.0.1:${port}/.well-known/agent-card.json`;
    const unreachable = await failureOf(send(activitiesFor({ settings: { allow: [down] } }), down));
    expect(unreachable).toMatchObject({ type: FailureType.RemoteAgentUnreachable, nonRetryable: false });

    const junk = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":1}'),
    );
    await new Promise<void>((r) => junk.listen(0, '127.0.0.1', r));
    servers.push({ close: () => new Promise<void>((r) => junk.close(() => r())) });
    const card = `http://127.0.0.1:${(junk.address() as AddressInfo).port}/card.json`;
    const malformed = await failureOf(send(activitiesFor({ settings: { allow: [card] } }), card));
    expect(malformed).toMatchObject({ type: FailureType.RemoteAgentBadCard, nonRetryable: true });
    expect(malformed.message).toContain('is not an A2A agent card');
  });

  it('a 5xx is retryable; a redirect is not followed', async () => {
    const answers = [503, 302];
    const odd = http.createServer((_req, res) => {
      const status = answers.shift() ?? 500;
      res.writeHead(status, status === 302 ? { location: 'http://169.254.169.254/latest/meta-data' } : {}).end();
    });
    await new Promise<void>((r) => odd.listen(0, '127.0.0.1', r));
    servers.push({ close: () => new Promise<void>((r) => odd.close(() => r())) });
    const card = `http://127.0.0.1:${(odd.address() as AddressInfo).port}/card.json`;
    const acts = activitiesFor({ settings: { allow: [card] } });
    expect(await failureOf(send(acts, card))).toMatchObject({
      type: FailureType.RemoteAgentUnreachable,
      nonRetryable: false,
    });
    const redirected = await failureOf(send(acts, card));
    expect(redirected).toMatchObject({ type: FailureType.RemoteAgentBadCard, nonRetryable: true });
    expect(redirected.message).toContain('answered 302');
  });
});
