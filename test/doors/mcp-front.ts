import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AgentClient } from '../../src/client/agent-client';
import { createMemoryBus } from '../../src/events/memory-bus';
import { createRunFollowerHub, startMcpHttp, type RunningMcpHttp } from '../../src/mcp-server';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { createAgentCatalog } from '../../src/server/catalog/agent-catalog';
import type { LoadedPolicy } from '../../src/governance';
import type { ApiContext } from '../../src/server/api-route';
import { createApiContext } from '../../src/server/create-server';
import { writeTokenFile, type Person } from '../server/server-harness';
import { inMemorySigner } from '../../src/server/signing/keyring-signer';

export interface McpFront {
  ctx: ApiContext;
  http: RunningMcpHttp;
  /** The MCP SDK's client, connected as the person `dev` of the server tests (or `options.who`). */
  client: Client;
  /** The token file it authenticates with (an operator may rewrite it while it runs). */
  tokenFile: string;
  /** Another MCP SDK client, connected as `who` (closed with the front). */
  connect(who: Person): Promise<Client>;
  close(): Promise<void>;
}

/**
 * `mcp-server --http` in front of `agents` (a harness's worker), with the server tests' tokens;
 * `options.policy` as `mcp-server --policy FILE` gives it.
 */
export async function startMcpFront(
  agents: AgentClient,
  name: string,
  options: { policy?: LoadedPolicy; who?: Person } = {},
): Promise<McpFront> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tl-${name}-`));
  const { file, tokens } = writeTokenFile(dir);
  const bus = createMemoryBus();
  const log = (): void => {};
  const auth = createTokenFileAuthenticator({ file });
  const ctx = createApiContext({
    agents,
    auth,
    bus,
    signer: inMemorySigner(),
    catalog: createAgentCatalog([]),
    log,
    ...(options.policy ? { policy: options.policy } : {}),
  });
  const hub = createRunFollowerHub(ctx);
  const http = await startMcpHttp({ ctx, hub, log }, { port: 0 });
  const clients: Client[] = [];
  const connect = async (who: Person): Promise<Client> => {
    const client = new Client({ name, version: '1.0.0' });
    const headers = { authorization: `Bearer ${tokens[who]}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  };
  const client = await connect(options.who ?? 'dev');
  return {
    ctx,
    http,
    client,
    tokenFile: file,
    connect,
    async close() {
      for (const c of clients) await c.close().catch(() => undefined);
      await http.close();
      await hub.close();
      await bus.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
