import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { ModelProvider } from '../../src/activities';
import { AgentClient } from '../../src/client/agent-client';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import { createServer, type RunningServer } from '../../src/server/create-server';
import { registerViewerRoute } from '../../src/server/routes/viewer-route';
import { createMemoryBus } from '../../src/events/memory-bus';
import type { ToolDefinition } from '../../src/tools/define-tool';
import type { ChainStore } from '../../src/store/chain-store';
import type { LoadedPolicy } from '../../src/governance';
import { createAgentWorker, type AgentWorkerOptions } from '../../src/worker';
import type { TriggerTable } from '../../src/server/triggers/trigger-config';
import type { TestEnv } from '../helpers/temporal-env';
import { writeTokenFile, type Person } from '../server/server-harness';
import { inMemorySigner } from '../../src/server/signing/keyring-signer';

export interface ViewerHarness {
  server: RunningServer;
  /** The server's client of the worker's queue: what a test does besides the HTTP doors (a fork). */
  agents: AgentClient;
  tokens: Record<Person, string>;
  tokenFile: string;
  /** fetch against the server as a person; the parsed JSON body (or the text). */
  call(who: Person, method: string, url: string, body?: unknown): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

/**
 * What `thoughtline serve --with-worker` runs, for the browser: the server with the viewer's
 * routes, and a real worker on its own task queue that publishes its run events (steps, model
 * text as it arrives) to the server's bus. server-harness's people and tokens.
 */
export async function startViewerHarness(
  env: TestEnv,
  deps: {
    tools: readonly ToolDefinition[];
    model: ModelProvider;
    store?: ChainStore;
    policy?: LoadedPolicy;
    /** Agents the worker registers; default none. */
    agents?: AgentWorkerOptions['agents'];
    /** The server's webhook triggers; default none. */
    triggers?: TriggerTable;
    /** Where "add to dataset" appends cases (`serve --datasets DIR`); default none. */
    datasets?: string;
    /** Guardrails the worker registers (runs name them); default none. */
    guardrails?: AgentWorkerOptions['guardrails'];
  },
): Promise<ViewerHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-viewer-'));
  const { file, tokens } = writeTokenFile(dir);
  const bus = createMemoryBus();
  const taskQueue = `test-${randomUUID()}`;
  const worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools: deps.tools,
    models: { scripted: deps.model },
    secrets: [],
    events: bus,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    ...(deps.agents ? { agents: deps.agents } : {}),
    ...(deps.guardrails ? { guardrails: deps.guardrails } : {}),
  });
  const running = worker.run();
  const agents = new AgentClient({ client: env.client, taskQueue });
  const server = await createServer({
    agents,
    auth: createTokenFileAuthenticator({ file }),
    bus,
    signer: inMemorySigner(),
    port: 0,
    ...(deps.store ? { store: deps.store } : {}),
    ...(deps.policy ? { policy: deps.policy } : {}),
    ...(deps.triggers ? { triggers: deps.triggers } : {}),
    ...(deps.datasets ? { datasets: deps.datasets } : {}),
    extend: (app) => registerViewerRoute(app),
  });
  return {
    server,
    agents,
    tokens,
    tokenFile: file,
    async call(who, method, url, body) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${tokens[who]}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      };
      const response = await fetch(`${server.url}${url}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await server.close();
      worker.shutdown();
      await running;
      await bus.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
