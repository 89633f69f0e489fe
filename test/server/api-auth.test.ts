import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestEnv } from '../helpers/temporal-env';
import { startLightServer } from './light-server';

const env = useTestEnv();
let light: Awaited<ReturnType<typeof startLightServer>>;

beforeAll(async () => {
  light = await startLightServer(env);
});
afterAll(async () => light?.close());

const get = (url: string, authorization?: string) =>
  fetch(`${light.server.url}${url}`, { headers: authorization ? { authorization } : {} });

describe('authentication', () => {
  it('401 with WWW-Authenticate: Bearer for a missing, malformed or unknown token, on every /v1 route', async () => {
    for (const url of ['/v1/me', '/v1/runs', '/v1/runs/agent-x', '/v1/runs/agent-x/chain']) {
      const missing = await get(url);
      expect(missing.status, url).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="thoughtline"');
      expect(await missing.json()).toMatchObject({
        error: { code: 'unauthenticated', message: expect.stringContaining('Authorization: Bearer') },
      });
    }
    const unknown = await get('/v1/me', 'Bearer tl_not_a_real_token');
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer realm="thoughtline", error="invalid_token"');
    expect((await get('/v1/me', `Basic ${Buffer.from('dev:x').toString('base64')}`)).status).toBe(401);
    expect((await get('/v1/me', `Bearer ${light.tokens.dev} extra`)).status).toBe(401);
    const post = await fetch(`${light.server.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"task":"x","caller":{"id":"boss"}}',
    });
    expect(post.status).toBe(401);
  });

  it('GET /v1/me tells who the token is and the views the roles allow', async () => {
    const me = async (who: keyof typeof light.tokens) => (await get('/v1/me', `Bearer ${light.tokens[who]}`)).json();
    expect(await me('dev')).toEqual({
      id: 'dev',
      roles: ['developer'],
      tenant: 'acme',
      views: ['end_user', 'developer'],
      defaultView: 'developer',
    });
    expect(await me('user')).toEqual({
      id: 'user',
      roles: [],
      tenant: 'acme',
      views: ['end_user'],
      defaultView: 'end_user',
    });
    expect(await me('auditor')).toMatchObject({ views: ['end_user', 'developer', 'auditor'], defaultView: 'auditor' });
    expect(await me('solo')).toEqual({
      id: 'solo',
      roles: ['developer'],
      views: ['end_user', 'developer'],
      defaultView: 'developer',
    });
    // The scheme is case-insensitive, as RFC 7235 says.
    expect((await get('/v1/me', `bearer ${light.tokens.dev}`)).status).toBe(200);
  });

  it('serves health and the OpenAPI document without a token', async () => {
    expect(await (await get('/v1/health')).json()).toEqual({ ok: true });
    expect((await get('/v1/openapi.json')).status).toBe(200);
  });
});
