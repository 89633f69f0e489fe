import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { IllegalStateError } from '@temporalio/common';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, inject } from 'vitest';
import type { ModelProvider } from '../../src/activities';
import { AgentClient } from '../../src/client/agent-client';
import type { ToolDefinition } from '../../src/tools/define-tool';
import { createAgentWorker, type AgentWorkerOptions } from '../../src/worker';
import type { AgentInputInit } from '../../src/domain';

/** A Temporal server as a test file sees it: a Client, and the NativeConnection Workers use. */
export interface TestEnv {
  client: Client;
  nativeConnection: NativeConnection;
  /** Another server's namespace (the time-skipping server's); by default the suite dev server's, from global-setup. */
  namespace?: string;
}

/**
 * Connects to the suite's shared dev server (started once in global-setup) for the calling test
 * file: registers a `beforeAll` that connects and an `afterAll` that closes. Call it at the top of
 * the file, before the file's own hooks. The returned env may be read only inside tests and hooks
 * registered after it: before the `beforeAll` has run it throws. Its `afterAll` runs after the
 * file's own (vitest's default `sequence.hooks: 'stack'`), so workers stop before it closes.
 */
export function useTestEnv(): TestEnv {
  let connected: (TestEnv & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    connected = await connectTestEnv();
  });
  afterAll(async () => connected?.close());
  const env = (): TestEnv => {
    if (!connected) throw new Error('useTestEnv(): not connected yet; read the env inside a test or a later hook');
    return connected;
  };
  return {
    get client() {
      return env().client;
    },
    get nativeConnection() {
      return env().nativeConnection;
    },
  };
}

/** Worker lifecycle chatter at INFO buries test output; warnings still show. The runtime is per process, so only the first install counts. */
export function installQuietRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch (err) {
    if (!(err instanceof IllegalStateError)) throw err;
  }
}

async function connectTestEnv(): Promise<TestEnv & { close(): Promise<void> }> {
  installQuietRuntime();
  const address = inject('temporalAddress');
  const namespace = inject('temporalNamespace');
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  return {
    client: new Client({ connection, namespace }),
    nativeConnection,
    close: async () => {
      await connection.close();
      await nativeConnection.close();
    },
  };
}

export interface AgentHarness {
  taskQueue: string;
  worker: Worker;
  agents: AgentClient;
}

/**
 * A real Worker on its own task queue, keeping runs in its workflow cache as users' workers do.
 * Determinism is not left to chance: the recorded histories of test/replay replay against the
 * workflows, the fuzzed-replies chaos test replays every history it makes, and the workers of the
 * eval harness, versioning, the run cache, MCP and A2A runs set `maxCachedWorkflows: 0`, as
 * `replayEveryTask` does here. Replaying every task in every test cost a seventh of the suite's
 * test time (1,367 s, 1,187 s cached: issue 64's note).
 */
export async function createHarness(
  env: TestEnv,
  deps: {
    tools: readonly ToolDefinition[];
    models: Partial<Record<string, ModelProvider>>;
    endpoints?: AgentWorkerOptions['endpoints'];
    secrets?: string[];
    onModelDelta?: AgentWorkerOptions['onModelDelta'];
    onModelReply?: AgentWorkerOptions['onModelReply'];
    /** Where the worker publishes run events (an EventBus); default none. */
    events?: AgentWorkerOptions['events'];
    isModelAllowed?: AgentWorkerOptions['isModelAllowed'];
    /** `maxCachedWorkflows: 0`: every workflow task replays the history from the start. */
    replayEveryTask?: boolean;
    /** Another workflow bundle, e.g. one holding a custom workflow around runAgent. */
    workflowBundlePath?: string;
    tenantLimits?: AgentWorkerOptions['tenantLimits'];
    mcp?: AgentWorkerOptions['mcp'];
    a2a?: AgentWorkerOptions['a2a'];
    conversationCacheBytes?: number;
    agents?: AgentWorkerOptions['agents'];
    guardrails?: AgentWorkerOptions['guardrails'];
    /** The worker's run cache (`cache` runs); default: a new file in the system's temporary folder. */
    cacheFile?: string;
    /** Another harness's task queue: a second worker for its runs (e.g. one that starts after the first stopped). */
    taskQueue?: string;
  },
): Promise<AgentHarness> {
  const taskQueue = deps.taskQueue ?? `test-${randomUUID()}`;
  const worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? inject('temporalNamespace'),
    taskQueue,
    tools: deps.tools,
    models: deps.models,
    ...(deps.endpoints ? { endpoints: deps.endpoints } : {}),
    secrets: deps.secrets ?? [],
    ...(deps.onModelDelta ? { onModelDelta: deps.onModelDelta } : {}),
    ...(deps.onModelReply ? { onModelReply: deps.onModelReply } : {}),
    ...(deps.events ? { events: deps.events } : {}),
    ...(deps.isModelAllowed ? { isModelAllowed: deps.isModelAllowed } : {}),
    ...(deps.tenantLimits ? { tenantLimits: deps.tenantLimits } : {}),
    ...(deps.mcp ? { mcp: deps.mcp } : {}),
    ...(deps.a2a ? { a2a: deps.a2a } : {}),
    ...(deps.agents ? { agents: deps.agents } : {}),
    ...(deps.guardrails ? { guardrails: deps.guardrails } : {}),
    // Each harness its own cache file (opened only if a run caches), never the project's shared one.
    cacheFile: deps.cacheFile ?? path.join(os.tmpdir(), `thoughtline-test-cache-${randomUUID()}.sqlite`),
    ...(deps.conversationCacheBytes !== undefined ? { conversationCacheBytes: deps.conversationCacheBytes } : {}),
    workflowBundle: { codePath: deps.workflowBundlePath ?? inject('workflowBundlePath') },
    workerOptions: deps.replayEveryTask ? { maxCachedWorkflows: 0 } : {},
  });
  return { taskQueue, worker, agents: new ScriptHarnessClient({ client: env.client, taskQueue }) };
}

/**
 * The harness's client: runs start with `requireThought: false` unless the test says otherwise.
 * Most tests' scripted turns call tools without a thought, since they test other things; the
 * thought-control tests (test/workflows/reasoning) set it, and the default stays on for users.
 */
class ScriptHarnessClient extends AgentClient {
  override start(
    init: AgentInputInit,
    options?: Parameters<AgentClient['start']>[1],
  ): ReturnType<AgentClient['start']> {
    return super.start({ requireThought: false, ...init }, options);
  }
}
