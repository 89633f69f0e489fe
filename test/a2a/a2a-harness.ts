import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { Client } from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };
import type { ModelProvider } from '../../src/activities';
import type { AgentDefinitionInit } from '../../src/domain/agents/agent-definition';
import { AgentClient } from '../../src/client/agent-client';
import { createMemoryBus } from '../../src/events/memory-bus';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { createAgentCatalog } from '../../src/server/catalog/agent-catalog';
import { createServer, type RunningServer } from '../../src/server/create-server';
import type { LoadedPolicy } from '../../src/governance';
import type { ToolDefinition } from '../../src/tools/define-tool';
import { createAgentWorker } from '../../src/worker';
import { writeTokenFile, type Person } from '../server/server-harness';
import type { TestEnv } from '../helpers/temporal-env';
import { inMemorySigner } from '../../src/server/signing/keyring-signer';

export interface A2aHarness {
  /**
   * Two `serve` instances on one bus and task queue: a task started on one is followed on the
   * other. The second allows push notifications to 127.0.0.1.
   */
  servers: [RunningServer, RunningServer];
  agents: AgentClient;
  tokens: Record<Person, string>;
  /** The token file both servers read (re-read when it changes): a test rewrites it to change who someone is. */
  tokenFile: string;
  logs: string[];
  /** `@a2a-js/sdk`'s client for an agent's card on a server, sending a person's token (or none). */
  client(who: Person | undefined, agent: string, server?: RunningServer): Promise<Client>;
  close(): Promise<void>;
}

/**
 * `thoughtline serve` as A2A peers see it: a worker (in this process) publishing run events to the
 * bus two servers share, with `agents` registered on the worker and offered in the servers'
 * catalogue. The model serves runs that name no model (a definition names none) as the default
 * provider, so protocol runs reach the scripted model.
 */
export async function startA2aHarness(
  env: TestEnv,
  deps: {
    tools: readonly ToolDefinition[];
    model: ModelProvider;
    agents: readonly AgentDefinitionInit[];
    /** The visibility policy both servers apply (`serve --policy`). */
    policy?: LoadedPolicy;
  },
): Promise<A2aHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-a2a-'));
  const { file, tokens } = writeTokenFile(dir);
  const bus = createMemoryBus();
  const taskQueue = `test-${randomUUID()}`;
  const worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools: deps.tools,
    models: { anthropic: deps.model, scripted: deps.model },
    agents: [...deps.agents],
    secrets: [],
    events: bus,
    cacheFile: path.join(dir, 'cache.sqlite'),
    workflowBundle: { codePath: inject('workflowBundlePath') },
  });
  const running = worker.run();
  const agents = new AgentClient({ client: env.client, taskQueue });
  const logs: string[] = [];
  const signer = inMemorySigner();
  const serve = (pushAllow?: string) => {
    // A2A settings are read from the environment when a server is built: only the second one allows webhooks.
    if (pushAllow) process.env.THOUGHTLINE_A2A_PUSH_ALLOW = pushAllow;
    else delete process.env.THOUGHTLINE_A2A_PUSH_ALLOW;
    return createServer({
      agents,
      auth: createTokenFileAuthenticator({ file, log: (l) => logs.push(l) }),
      // One signer for both servers, as two serve processes share a keyring file.
      signer,
      bus,
      catalog: createAgentCatalog(deps.agents),
      ...(deps.policy ? { policy: deps.policy } : {}),
      port: 0,
      log: (l) => logs.push(l),
    }).finally(() => delete process.env.THOUGHTLINE_A2A_PUSH_ALLOW);
  };
  const servers: [RunningServer, RunningServer] = [await serve(), await serve('127.0.0.1')];
  const sdk = await import('@a2a-js/sdk/client');
  return {
    servers,
    agents,
    tokens,
    tokenFile: file,
    logs,
    async client(who, agent, server = servers[0]) {
      const fetchImpl = sdk.createAuthenticatingFetchWithRetry(fetch, {
        headers: async (): Promise<Record<string, string>> => (who ? { authorization: `Bearer ${tokens[who]}` } : {}),
        shouldRetryWithHeaders: async () => undefined,
      });
      const factory = new sdk.ClientFactory(
        sdk.ClientFactoryOptions.createFrom(sdk.ClientFactoryOptions.default, {
          transports: [new sdk.JsonRpcTransportFactory({ fetchImpl })],
        }),
      );
      return factory.createFromUrl(`${server.url}/a2a/${agent}/.well-known/agent-card.json`, '');
    },
    async close() {
      for (const server of servers) await server.close();
      worker.shutdown();
      await running;
      await bus.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
