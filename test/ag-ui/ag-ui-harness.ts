import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import type { ModelProvider } from '../../src/activities';
import { AgentClient } from '../../src/client/agent-client';
import { createMemoryBus } from '../../src/events/memory-bus';
import { createTokenFileAuthenticator } from '../../src/server/auth/token-file-authenticator';
import type { AgentDefinitionInit } from '../../src/domain/agents/agent-definition';
import type { AgentCatalog } from '../../src/server/catalog/agent-catalog';
import { createServer, type CreateServerOptions, type RunningServer } from '../../src/server/create-server';
import type { ToolDefinition } from '../../src/tools/define-tool';
import { createAgentWorker } from '../../src/worker';
import type { TestEnv } from '../helpers/temporal-env';
import { writeTokenFile, type Person } from '../server/server-harness';
import { inMemorySigner } from '../../src/server/signing/keyring-signer';

/**
 * One worker and two server instances on the same Temporal (the second has its own event bus, so
 * it knows nothing the first did): what a stateless AG-UI front end meets behind a load balancer.
 * The worker publishes run events (model text included) to the first server's bus; the second
 * catches up from Temporal like any instance that missed them. Runs without a model of their own
 * (catalogue agents) use the default provider `anthropic`, served here by the test's model.
 */
export interface AgUiServers {
  agents: AgentClient;
  a: RunningServer;
  b: RunningServer;
  tokens: Record<Person, string>;
  close(): Promise<void>;
}

export async function startAgUiServers(
  env: TestEnv,
  deps: {
    model: ModelProvider;
    tools: readonly ToolDefinition[];
    catalog?: AgentCatalog;
    /** Agent definitions the worker registers (a catalogue's agents start by name). */
    agents?: readonly AgentDefinitionInit[];
    /** More options for both servers (a visibility policy, say). */
    server?: Partial<CreateServerOptions>;
  },
): Promise<AgUiServers> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-ag-ui-'));
  const { file, tokens } = writeTokenFile(dir);
  const taskQueue = `test-${randomUUID()}`;
  const bus = createMemoryBus();
  const worker: Worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools: deps.tools,
    models: { scripted: deps.model, anthropic: deps.model },
    ...(deps.agents ? { agents: [...deps.agents] } : {}),
    secrets: [],
    events: bus,
    cacheFile: path.join(os.tmpdir(), `thoughtline-test-cache-${randomUUID()}.sqlite`),
    workflowBundle: { codePath: inject('workflowBundlePath') },
  });
  const running = worker.run();
  const agents = new AgentClient({ client: env.client, taskQueue });
  const signer = inMemorySigner();
  const serve = (own: boolean) =>
    createServer({
      agents,
      auth: createTokenFileAuthenticator({ file, log: () => {} }),
      // One signer for both servers, as two serve processes share a keyring file.
      signer,
      port: 0,
      log: () => {},
      ...(own ? { bus } : {}),
      ...(deps.catalog ? { catalog: deps.catalog } : {}),
      ...deps.server,
    });
  const a = await serve(true);
  const b = await serve(false);
  return {
    agents,
    a,
    b,
    tokens,
    close: async () => {
      await a.close();
      await b.close();
      worker.shutdown();
      await running;
      await bus.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Plays each text and thinking block of a reply as streamed deltas first (two pieces), as a streaming provider does. */
export function streaming(model: ModelProvider): ModelProvider {
  return {
    name: model.name,
    async complete(request, signal, hooks) {
      const reply = await model.complete(request, signal, hooks);
      for (const block of reply.content) {
        const text = block.type === 'text' ? block.text : block.type === 'thinking' ? block.thinking : undefined;
        const send = block.type === 'text' ? hooks?.onTextDelta : hooks?.onThinkingDelta;
        if (text === undefined || !send) continue;
        const half = Math.ceil(text.length / 2);
        send(text.slice(0, half));
        send(text.slice(half));
      }
      return reply;
    },
  };
}
