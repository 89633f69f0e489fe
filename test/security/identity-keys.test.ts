import { randomUUID, type webcrypto } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { say, useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { readThread, threadWorkflowId } from '../../src/client/threads/thread-client';
import { createMemoryBus } from '../../src/events/memory-bus';
import { createRunFollowerHub, startMcpHttp, type RunningMcpHttp } from '../../src/mcp-server';
import { createCombinedAuthenticator } from '../../src/server/auth/combined-authenticator';
import { createOidcAuthenticator } from '../../src/server/auth/oidc-authenticator';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { tokenSha256 } from '../../src/server/auth/token-hash';
import { createApiContext, createServer, type RunningServer } from '../../src/server/create-server';
import type { ChainStore } from '../../src/store/chain-store';
import { openChainStore } from '../../src/store/open-chain-store';
import { createAgentWorker } from '../../src/worker';
import { useTestEnv } from '../helpers/temporal-env';
import { threadModels } from '../threads/thread-models';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });

/**
 * Issue 63: a token-file id equal to an OIDC subject was the same person for threads, MCP HTTP
 * sessions and viewer preferences. One server here takes both (the combined authenticator, as
 * `serve` with a token file and --oidc-issuer): the token-file person `alice` and the OIDC
 * subject `alice`, in the same tenant, must be two people everywhere a key names a person.
 */
const env = useTestEnv();
const models = threadModels();
const issuer = 'https://id.example.test/realms/acme';
const audience = 'thoughtline-api';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-identity-keys-'));
const tokens = {
  alice: `tl_test_alice_${randomUUID().replaceAll('-', '')}`,
  carol: `tl_test_carol_${randomUUID().replaceAll('-', '')}`,
};
let oidcAlice: string;
let jwks: http.Server;
let store: ChainStore;
let server: RunningServer;
let mcp: RunningMcpHttp;
let agents: AgentClient;
let closeAll: () => Promise<void>;

beforeAll(async () => {
  const jose: Jose = await import('jose');
  const { publicKey, privateKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' };
  jwks = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
  const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
  const now = Math.floor(Date.now() / 1000);
  oidcAlice = await new jose.SignJWT({ roles: ['developer'], tenant: 'acme' })
    .setProtectedHeader({ alg: 'ES256', kid: 'ec-1', typ: 'at+jwt' })
    .setSubject('alice')
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(privateKey as webcrypto.CryptoKey);

  const tokenFile = path.join(dir, 'tokens.json');
  const entries = Object.entries(tokens).map(([id, t]) => ({
    sha256: tokenSha256(t),
    id,
    roles: ['developer'],
    tenant: 'acme',
  }));
  fs.writeFileSync(tokenFile, JSON.stringify({ tokens: entries }), { mode: 0o600 });
  const auth = createCombinedAuthenticator({
    tokens: createTokenFileAuthenticator({ file: tokenFile }),
    oidc: createOidcAuthenticator({ issuer, audience, jwksUrl, jwksCooldownMs: 0 }),
  });

  const taskQueue = `test-${randomUUID()}`;
  const worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools: [],
    models: { anthropic: models },
    secrets: [],
    cacheFile: path.join(dir, 'cache.sqlite'),
    workflowBundle: { codePath: inject('workflowBundlePath') },
  });
  const running = worker.run();
  agents = new AgentClient({ client: env.client, taskQueue });
  store = (await openChainStore({ kind: 'sqlite', file: path.join(dir, 'store.sqlite') }))!;
  server = await createServer({ agents, auth, store, port: 0, log: () => {} });
  const bus = createMemoryBus();
  const ctx = createApiContext({ agents, auth, bus, log: () => {} });
  const hub = createRunFollowerHub(ctx);
  mcp = await startMcpHttp({ ctx, hub, log: () => {} }, { port: 0 });
  closeAll = async () => {
    await mcp.close();
    await hub.close();
    await bus.close();
    await server.close();
    await store.close();
    worker.shutdown();
    await running;
  };
});
afterAll(async () => {
  await closeAll?.();
  await new Promise<void>((r) => (jwks ? jwks.close(() => r()) : r()));
  fs.rmSync(dir, { recursive: true, force: true });
});

const bearer = (who: 'token' | 'oidc') => `Bearer ${who === 'token' ? tokens.alice : oidcAlice}`;

async function preferences(authorization: string, body?: object) {
  const response = await fetch(`${server.url}/v1/me/preferences`, {
    method: body ? 'PUT' : 'GET',
    headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { preferences: Record<string, boolean>; saved: boolean };
}

describe('a token-file id and an OIDC subject that spell the same string', () => {
  it('are two people for viewer preferences', async () => {
    await preferences(bearer('token'), { thinking: false, summariesOnly: true });
    expect(await preferences(bearer('token'))).toMatchObject({
      saved: true,
      preferences: { thinking: false, summariesOnly: true },
    });
    expect(await preferences(bearer('oidc'))).toMatchObject({
      saved: false,
      preferences: { thinking: true, summariesOnly: false },
    });
  });

  it('keeps preferences saved under the key of before readable, until the person saves again', async () => {
    await store.writePreferences(JSON.stringify(['acme', 'carol']), {
      thinking: false,
      externalCalls: true,
      internalCalls: false,
      finalReasoning: true,
      summariesOnly: false,
    });
    const carol = `Bearer ${tokens.carol}`;
    expect(await preferences(carol)).toMatchObject({
      saved: true,
      preferences: { thinking: false, internalCalls: false },
    });
    await preferences(carol, { thinking: true });
    expect(await preferences(carol)).toMatchObject({
      saved: true,
      preferences: { thinking: true, internalCalls: true },
    });
  });

  it('are two people for threads: the same thread id is two conversations, neither seeing the other', async () => {
    const threadId = `shared-${randomUUID()}`;
    const mine = `mine-${randomUUID().slice(0, 8)}`;
    const theirs = `theirs-${randomUUID().slice(0, 8)}`;
    models.script(mine, [
      { content: [say('Thought: noted.'), useTool('finish', { result: 'The launch code is 0451.' })] },
    ]);
    const theirModel = models.script(theirs, [
      { content: [say('Thought: hi.'), useTool('finish', { result: 'Hello.' })] },
    ]);
    const turn = async (who: 'token' | 'oidc', text: string) => {
      const agent = new HttpAgent({
        url: `${server.url}/v1/ag-ui/agent`,
        headers: { Authorization: bearer(who) },
        threadId,
      });
      agent.addMessage({ id: randomUUID(), role: 'user', content: text });
      await agent.runAgent({});
    };
    await turn('token', `${mine}: remember the launch code`);
    await turn('oidc', `${theirs}: what did I tell you before?`);
    expect(JSON.stringify(theirModel.calls[0]!.messages)).not.toContain('0451');
    const asToken = await readThread(agents, threadWorkflowId({ id: 'alice', tenant: 'acme', via: 'token' }, threadId));
    const asOidc = await readThread(agents, threadWorkflowId({ id: 'alice', tenant: 'acme', via: 'oidc' }, threadId));
    expect(asToken?.turns.map((t) => t.answer)).toEqual(['The launch code is 0451.']);
    expect(asOidc?.turns.map((t) => t.answer)).toEqual(['Hello.']);
  });

  it('are two people for MCP HTTP sessions: the other one is answered "not found"', async () => {
    const client = new Client({ name: 'identity-keys', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcp.url), {
        requestInit: { headers: { authorization: bearer('token') } },
      }),
    );
    try {
      const sessionId = (client.transport as { sessionId?: string }).sessionId!;
      const request = (authorization: string) =>
        fetch(mcp.url, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }),
        });
      expect((await request(bearer('oidc'))).status).toBe(404);
      expect((await request(bearer('token'))).status).toBe(200);
    } finally {
      await client.close();
    }
  });
});
