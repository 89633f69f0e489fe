import Anthropic, { InternalServerError, type APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { httpError, message, text, textBlock, toolUse, toolUseBlock } from '../../src/testing';
import { useFakeServerPerTest } from './fixtures';

const API_KEY = 'sk-ant-fake-server-key-42';
const start = useFakeServerPerTest();

const sdk = (baseURL: string) => new Anthropic({ apiKey: API_KEY, baseURL, maxRetries: 0 });
const ask = (client: Anthropic, content = 'hi') =>
  client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content }] });

function rawPost(
  baseUrl: string,
  headers: Record<string, string>,
  body: unknown = { model: 'm', max_tokens: 1, messages: [] },
) {
  return fetch(`${baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('fake Messages server', () => {
  it('answers in a shape the real SDK parses: ids, echoed model, blocks, usage', async () => {
    const s = await start([
      message([
        textBlock('Checking.'),
        toolUseBlock('get_weather', { city: 'Oslo' }),
        toolUseBlock('get_time', {}, 'toolu_fixed'),
      ]),
    ]);
    const reply = await ask(sdk(s.baseUrl));
    expect(reply.id).toMatch(/^msg_01[0-9A-Za-z]{22}$/);
    expect(reply.type).toBe('message');
    expect(reply.role).toBe('assistant');
    expect(reply.model).toBe('claude-haiku-4-5');
    expect(reply.stop_reason).toBe('tool_use');
    expect(reply.content.map((b) => b.type)).toEqual(['text', 'tool_use', 'tool_use']);
    const [, first, second] = reply.content;
    expect(first?.type === 'tool_use' && first.id).toMatch(/^toolu_01[0-9A-Za-z]{22}$/);
    expect(first?.type === 'tool_use' && first.input).toEqual({ city: 'Oslo' });
    expect(second?.type === 'tool_use' && second.id).toBe('toolu_fixed');
    expect(reply.usage.input_tokens).toBeGreaterThan(0);
    s.verify();
  });

  it('lets a script entry compute its reply from the request body', async () => {
    const s = await start([(body) => text(`you said ${JSON.stringify(body.messages[0]?.content)}`)]);
    const reply = await ask(sdk(s.baseUrl), 'ping');
    expect(reply.content[0]?.type === 'text' && reply.content[0].text).toBe('you said "ping"');
  });

  it('answers scripted HTTP errors with the Anthropic error body and headers', async () => {
    const s = await start([
      httpError(429, { retryAfter: 3, retryAfterMs: 3100, shouldRetry: true, requestId: 'req_x' }),
    ]);
    const response = await rawPost(s.baseUrl, { 'x-api-key': API_KEY });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(response.headers.get('retry-after-ms')).toBe('3100');
    expect(response.headers.get('x-should-retry')).toBe('true');
    expect(response.headers.get('request-id')).toBe('req_x');
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.any(String) },
      request_id: 'req_x',
    });
    s.verify();
  });

  it('accepts x-api-key and Bearer auth, records which, and redacts both', async () => {
    const s = await start([text('a'), text('b')]);
    expect((await rawPost(s.baseUrl, { 'x-api-key': API_KEY })).status).toBe(200);
    await ask(new Anthropic({ authToken: 'bearer-secret-token', baseURL: s.baseUrl, maxRetries: 0 }));
    expect(s.requests.map((r) => r.auth)).toEqual(['x-api-key', 'bearer']);
    expect(s.requests[0]?.headers['x-api-key']).toBe('[redacted]');
    expect(s.requests[1]?.headers.authorization).toBe('Bearer [redacted]');
    const recorded = JSON.stringify(s.requests);
    expect(recorded).not.toContain(API_KEY);
    expect(recorded).not.toContain('bearer-secret-token');
    s.verify();
  });

  it('answers 401 with an Anthropic error body when no credential is sent, without using the script', async () => {
    const s = await start([text('unused?')]);
    const response = await rawPost(s.baseUrl, {});
    expect(response.status).toBe(401);
    const body = (await response.json()) as { type: string; error: { type: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('authentication_error');
    expect(s.requests[0]?.auth).toBe('none');
    expect(() => s.verify()).toThrow(/1 script entries left unused/);
  });

  it('fails loudly when the script is exhausted: 500 with a clear message, and verify() throws', async () => {
    const s = await start([text('only one')]);
    const client = sdk(s.baseUrl);
    await ask(client);
    const error = await ask(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as APIError).apiMessage).toMatch(/script exhausted: request #2/);
    expect((error as APIError).headers?.get('x-should-retry')).toBe('false');
    expect(s.errors).toHaveLength(1);
    expect(() => s.verify()).toThrow(/script exhausted/);
  });

  it('verify() throws when entries are left unused, naming them', async () => {
    const s = await start([text('used'), toolUse('lookup', { q: 'x' })]);
    await ask(sdk(s.baseUrl));
    expect(() => s.verify()).toThrow(/1 script entries left unused: message\[toolUse\(lookup\)\]/);
  });

  it('append() extends the script', async () => {
    const s = await start();
    s.append([text('late entry')]);
    const reply = await ask(sdk(s.baseUrl));
    expect(reply.content[0]?.type === 'text' && reply.content[0].text).toBe('late entry');
    s.verify();
  });

  it('records unknown routes and malformed bodies as harness errors', async () => {
    const s = await start([text('never used')]);
    const wrongRoute = await fetch(`${s.baseUrl}/v1/complete`, { method: 'POST', headers: { 'x-api-key': API_KEY } });
    expect(wrongRoute.status).toBe(404);
    expect((await rawPost(s.baseUrl, { 'x-api-key': API_KEY }, { model: 'm' })).status).toBe(400);
    expect(s.errors).toEqual([
      expect.stringMatching(/no route for POST \/v1\/complete/),
      expect.stringMatching(/missing max_tokens \(number\), messages \(array\)/),
    ]);
    expect(() => s.verify()).toThrow(/no route/);
  });

  it('delays a reply by delayMs', async () => {
    const s = await start([text('slow', { delayMs: 150 })]);
    const started = Date.now();
    await ask(sdk(s.baseUrl));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('close() ends a pending delayed reply instead of waiting for it', async () => {
    const s = await start([text('never', { delayMs: 60_000 })]);
    const pending = ask(sdk(s.baseUrl)).then(
      () => 'answered',
      () => 'failed',
    );
    while (s.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    await s.close();
    expect(await pending).toBe('failed');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
