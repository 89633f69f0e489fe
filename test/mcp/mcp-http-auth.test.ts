import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizedFetch, mcpAuthSecrets } from '../../src/activities/mcp/mcp-http-auth';
import { InvalidMcpConfigError, parseMcpConfig } from '../../src/activities/mcp/load-mcp-config';
import { createMcpTools } from '../../src/activities/mcp/mcp-tools';
import { startTaskServer, type TaskServer } from './task-server';

const CLIENT_ID = 'thoughtline-worker';
const CLIENT_SECRET = 'cc-secret-8f2b61d0';
const STATIC_TOKEN = 'static-token-5e1c9a77';
const context = () => ({ signal: new AbortController().signal, heartbeat: () => undefined });
const call = (toolName: string) => ({
  toolName,
  arguments: { topic: 'auth', ms: 0 },
  idempotencyKey: 'k',
  maxResultChars: 1_000,
});

describe('OAuth client credentials and bearer tokens for remote MCP servers', () => {
  let server: TaskServer;
  beforeAll(async () => {
    server = await startTaskServer({ CLIENT_ID, CLIENT_SECRET, STATIC_TOKEN });
  }, 30_000);
  afterAll(() => server?.stop());

  it('gets a token from the token endpoint with the id and secret the environment holds, and keeps it for the next call', async () => {
    const env = { TL_ID: CLIENT_ID, TL_SECRET: CLIENT_SECRET };
    const config = parseMcpConfig({
      mcpServers: {
        reports: {
          url: server.url,
          auth: {
            type: 'client_credentials',
            tokenUrl: server.tokenUrl,
            clientIdEnv: 'TL_ID',
            clientSecretEnv: 'TL_SECRET',
          },
        },
      },
    });
    expect(mcpAuthSecrets(config, env)).toEqual([CLIENT_ID, CLIENT_SECRET]);
    const before = await server.stats();
    const mcp = createMcpTools(config, env);
    try {
      const started = await mcp.call(call('reports__slow_report'), context());
      expect(started).toHaveProperty('parked');
      await new Promise((r) => setTimeout(r, 100));
      const polled = await mcp.poll(
        call('reports__slow_report'),
        (started as { parked: { taskId: string } }).parked.taskId,
        context(),
      );
      expect(polled).toEqual({ result: 'Report on auth: all good.' });
    } finally {
      await mcp.close();
    }
    const after = await server.stats();
    expect(after.tokens - before.tokens).toBe(1);
    expect(after.refused - before.refused).toBe(0);
  });

  it('sends a bearer token from the environment; a wrong one is refused without the token in the error', async () => {
    const good = createMcpTools(
      parseMcpConfig({ mcpServers: { reports: { url: server.url, auth: { type: 'bearer', tokenEnv: 'TL_TOKEN' } } } }),
      { TL_TOKEN: STATIC_TOKEN },
    );
    try {
      expect(await good.call(call('reports__slow_report'), context())).toHaveProperty('parked');
    } finally {
      await good.close();
    }
    const wrong = 'wrong-token-0a9d3c55';
    const bad = createMcpTools(
      parseMcpConfig({ mcpServers: { reports: { url: server.url, auth: { type: 'bearer', tokenEnv: 'TL_TOKEN' } } } }),
      { TL_TOKEN: wrong },
    );
    try {
      const err = await bad.call(call('reports__slow_report'), context()).catch((e: unknown) => e as Error);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/401|unauthori[sz]ed/i);
      expect((err as Error).message).not.toContain(wrong);
    } finally {
      await bad.close();
    }
  });

  it('refuses wrong client credentials with the endpoint’s error code, never the secret', async () => {
    const mcp = createMcpTools(
      parseMcpConfig({
        mcpServers: {
          reports: {
            url: server.url,
            auth: {
              type: 'client_credentials',
              tokenUrl: server.tokenUrl,
              clientIdEnv: 'TL_ID',
              clientSecretEnv: 'TL_SECRET',
            },
          },
        },
      }),
      { TL_ID: CLIENT_ID, TL_SECRET: 'not-the-secret-77' },
    );
    try {
      const err = (await mcp.call(call('reports__slow_report'), context()).catch((e: unknown) => e)) as Error;
      expect(err.message).toContain('answered 401 (invalid_client)');
      expect(err.message).not.toContain('not-the-secret-77');
    } finally {
      await mcp.close();
    }
  });

  it('fails the worker start when a variable `auth` names is not set, naming the variable', () => {
    const config = parseMcpConfig({
      mcpServers: { reports: { url: 'https://mcp.example.com/mcp', auth: { type: 'bearer', tokenEnv: 'TL_NOT_SET' } } },
    });
    expect(() => mcpAuthSecrets(config, {})).toThrow(InvalidMcpConfigError);
    expect(() => mcpAuthSecrets(config, {})).toThrow(/TL_NOT_SET, which is not set/);
  });

  it('refuses an `auth` it cannot read: an unknown type, a secret written in place of a variable name, an unknown key', () => {
    const bad = [
      { type: 'basic', tokenEnv: 'X' },
      { type: 'bearer', tokenEnv: 'sk-live abc' },
      { type: 'bearer', tokenEnv: 'X', token: 'abc' },
    ];
    for (const auth of bad)
      expect(() => parseMcpConfig({ mcpServers: { s: { url: 'https://mcp.example.com/mcp', auth } } })).toThrow(
        InvalidMcpConfigError,
      );
    expect(() =>
      parseMcpConfig({ mcpServers: { s: { command: 'node', auth: { type: 'bearer', tokenEnv: 'X' } } } }),
    ).toThrow(InvalidMcpConfigError);
  });

  it('fetches a new token once when the server answers 401, and keeps a token until shortly before it expires', async () => {
    let issued = 0;
    let clock = 0;
    const seen: string[] = [];
    const base = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      if (String(url).endsWith('/token')) {
        issued++;
        return Response.json({ access_token: `t${issued}`, expires_in: 120 });
      }
      const auth = new Headers(init?.headers).get('authorization') ?? '';
      seen.push(auth);
      return new Response('{}', { status: auth === 'Bearer t1' && issued === 1 && seen.length === 2 ? 401 : 200 });
    };
    const fetchWith = authorizedFetch(
      's',
      {
        type: 'client_credentials',
        tokenUrl: 'https://auth.example.com/token',
        clientIdEnv: 'I',
        clientSecretEnv: 'S',
      },
      { I: 'id', S: 'secret' },
      base,
      () => clock,
    );
    expect((await fetchWith('https://mcp.example.com/mcp')).status).toBe(200);
    // The second request meets a 401: one new token, and the request is sent again with it.
    expect((await fetchWith('https://mcp.example.com/mcp')).status).toBe(200);
    expect(seen).toEqual(['Bearer t1', 'Bearer t1', 'Bearer t2']);
    // 120 s tokens are kept 60 s: at 61 s a third is fetched.
    clock = 61_000;
    await fetchWith('https://mcp.example.com/mcp');
    expect(seen.at(-1)).toBe('Bearer t3');
    expect(issued).toBe(3);
  });
});
