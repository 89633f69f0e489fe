import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import type { ModelProvider } from '../../src/activities';
import { AgentClient } from '../../src/client/agent-client';
import { createMemoryBus } from '../../src/events/memory-bus';
import { createRunFollowerHub, startMcpHttp, type RunningMcpHttp } from '../../src/mcp-server';
import type { ApiContext } from '../../src/server/api-route';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { createAgentCatalog } from '../../src/server/catalog/agent-catalog';
import { createApiContext } from '../../src/server/create-server';
import type { AgentDefinitionInit, AgentInputInit } from '../../src/domain';
import type { ToolDefinition } from '../../src/tools/define-tool';
import { createAgentWorker } from '../../src/worker';
import type { TestEnv } from '../helpers/temporal-env';
import { writeTokenFile, type Person } from '../server/server-harness';
import { inMemorySigner } from '../../src/server/signing/keyring-signer';

/** Scripted turns need no thought before a tool call here, as in the other harnesses. */
class ScriptedRunsClient extends AgentClient {
  override start(
    init: AgentInputInit,
    options?: Parameters<AgentClient['start']>[1],
  ): ReturnType<AgentClient['start']> {
    return super.start({ requireThought: false, ...init }, options);
  }
}

export interface McpHarness {
  ctx: ApiContext;
  http: RunningMcpHttp;
  tokens: Record<Person, string>;
  /** A connected MCP client as a person; `elicitation` declares the capability. */
  connect(who: Person, options?: { elicitation?: boolean }): Promise<Client>;
  close(): Promise<void>;
}

/**
 * A worker on its own queue publishing to a memory bus, and `mcp-server --http` in front of it
 * on that bus, with the server tests' people: the model is served as the default provider
 * (`anthropic`), since catalogue agents name no model.
 */
export async function startMcpHarness(
  env: TestEnv,
  deps: { tools: readonly ToolDefinition[]; model: ModelProvider; agents: readonly AgentDefinitionInit[] },
): Promise<McpHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-mcps-'));
  const { file, tokens } = writeTokenFile(dir);
  const bus = createMemoryBus();
  const taskQueue = `test-mcps-${randomUUID()}`;
  const worker: Worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? inject('temporalNamespace'),
    taskQueue,
    tools: deps.tools,
    models: { anthropic: deps.model },
    secrets: [],
    agents: deps.agents,
    events: bus,
    cacheFile: path.join(dir, 'cache.sqlite'),
    workflowBundle: { codePath: inject('workflowBundlePath') },
  });
  const running = worker.run();
  const log = (): void => {};
  const ctx = createApiContext({
    agents: new ScriptedRunsClient({ client: env.client, taskQueue }),
    auth: createTokenFileAuthenticator({ file }),
    bus,
    signer: inMemorySigner(),
    catalog: createAgentCatalog(deps.agents),
    log,
  });
  const hub = createRunFollowerHub(ctx);
  const http = await startMcpHttp({ ctx, hub, log }, { port: 0 });
  const clients: Client[] = [];
  return {
    ctx,
    http,
    tokens,
    connect: async (who, options = {}) => {
      const client = new Client(
        { name: 'test-client', version: '1.0.0' },
        { capabilities: options.elicitation ? { elicitation: { form: {} } } : {} },
      );
      const transport = new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${tokens[who]}` } },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await http.close();
      await hub.close();
      worker.shutdown();
      await running;
      await bus.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
