import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { AgentClient } from '../../src/client/agent-client';
import { scriptedInput } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { startLightServer } from './light-server';

const env = useTestEnv();
let light: Awaited<ReturnType<typeof startLightServer>>;
const SECRET = 'sk-ant-api03-SECRETSECRETSECRET';

beforeAll(async () => {
  light = await startLightServer(env, {
    queryTimeoutMs: 1_500,
    extend: (app) => {
      app.get('/v1/test-crash', async () => {
        throw new Error(`database password ${SECRET} rejected`);
      });
    },
  });
});
afterAll(async () => light?.close());

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${light.server.url}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${light.tokens.dev}`, 'content-type': 'application/json', ...headers },
    body,
  });

describe('errors', () => {
  it('413 payload_too_large for a body over the limit (256 KiB by default)', async () => {
    const big = await post('/v1/runs', JSON.stringify({ task: 'x'.repeat(300 * 1024) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({
      error: { code: 'payload_too_large', message: expect.stringContaining('limit') },
    });
  });

  it('400 for malformed JSON, a non-JSON content type and a body that is not an object', async () => {
    const malformed = await post('/v1/runs', '{"task": ');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      error: { code: 'bad_request', message: expect.stringContaining('JSON') },
    });
    const text = await post('/v1/runs', 'task=x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
    expect(((await text.json()) as any).error.code).toBe('bad_request');
    const array = await post('/v1/runs', '[1,2]');
    expect(array.status).toBe(400);
    const proto = await post('/v1/runs', '{"task":"x","__proto__":{"admin":true}}');
    expect(proto.status).toBe(400);
  });

  it('404 not_found as JSON for an unknown route; 500 internal with neither the message nor the stack', async () => {
    const missing = await fetch(`${light.server.url}/v1/nothing-here`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.code).toBe('not_found');

    const crash = await fetch(`${light.server.url}/v1/test-crash`);
    expect(crash.status).toBe(500);
    const text = await crash.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'internal', message: 'Internal error; the server log has the details.' },
    });
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('at ');
    expect(light.logs.join('\n')).toContain(SECRET);
  });

  it('503 unavailable, soon, when no worker answers for the run; the run itself is untouched', async () => {
    const agents = new AgentClient({ client: env.client, taskQueue: `nobody-${randomUUID()}` });
    const handle = await agents.start(
      scriptedInput('nobody polls', { caller: { id: 'dev', roles: ['developer'], tenant: 'acme' } }),
    );
    try {
      const status = await fetch(`${light.server.url}/v1/runs/${handle.workflowId}`, {
        headers: { authorization: `Bearer ${light.tokens.dev}` },
      });
      expect(status.status).toBe(503);
      expect(((await status.json()) as any).error).toMatchObject({
        code: 'unavailable',
        message: expect.stringContaining('worker'),
      });
      expect(
        (
          await fetch(`${light.server.url}/v1/runs/${handle.workflowId}`, {
            headers: { authorization: `Bearer ${light.tokens.rival}` },
          })
        ).status,
      ).toBe(404);
    } finally {
      await handle.terminate('test over');
    }
  });

  it('401, not 500, when the authenticator itself fails: authentication fails closed', async () => {
    const broken = await startLightServer(env, {
      auth: {
        authenticate: async () => {
          throw new Error('JWKS fetch failed: ECONNREFUSED');
        },
      },
    });
    try {
      const me = await fetch(`${broken.server.url}/v1/me`, { headers: { authorization: 'Bearer a.b.c' } });
      expect(me.status).toBe(401);
      const text = await me.text();
      expect(text).not.toContain('ECONNREFUSED');
      expect(JSON.parse(text).error.code).toBe('unauthenticated');
    } finally {
      await broken.close();
    }
  });
});
