import path from 'node:path';
import { Client } from '@temporalio/client';
import type { LogEntry, Worker } from '@temporalio/worker';
import { terseLogEntry } from '../reading/terse-log-entry';
import { createDataConverter, FAILURE_CONVERTER_PATH } from '../../codec/data-converter';
import { loadConfig, type Config } from '../../config';
import { connectClient, connectNative } from '../../connection';
import { saveReportTool } from '../../demo/save-report-tool';
import { weatherTool } from '../../demo/weather-tool';
import { ensureTemporalServer, findTemporalServer, type TemporalServer } from '../../dev-server';
import { findProjectRoot, thoughtlinePaths } from '../../dev-server/project-paths';
import { isModelAllowed } from '../../domain';
import type { ModelProvider } from '../../activities';
import type { ToolDefinition } from '../../tools/define-tool';
import { createFileTools } from '../../tools/builtin/files';
import type { AgentWorkerOptions } from '../../worker';
import { AgentClient } from '../../client/agent-client';
import { cliWorkerIdentity } from './worker-identity';
import type { ModelSetup } from './model-setup';
import { ensureSearchAttributes } from '../../client/start/search-attributes-setup';
import { terminalSafe } from '../render/terminal-safe';

export const log = (line: string): void => console.error(terminalSafe(`thoughtline: ${line}`));

/** Tools the CLI's worker offers. Real deployments compose their own worker (see README). */
export const BUILT_IN_TOOLS: readonly ToolDefinition[] = [weatherTool, saveReportTool];

/**
 * What the CLI's worker adds for `run --files/--files-root`: the built-in file tools that read
 * (files_read, files_list, files_search), rooted where the context files were read, so the agent
 * can read more of the same tree. Never files_write: the flags ask for reading. Not added otherwise.
 */
export const readingFileTools = (root: string): ToolDefinition[] =>
  createFileTools({ root }).filter((tool) => tool.name !== 'files_write') as ToolDefinition[];

export interface Connected {
  config: Readonly<Config>;
  server: TemporalServer;
  agents: AgentClient;
}

/**
 * Connects a client to the running Temporal server; never starts one. Commands that read or
 * talk to existing runs use this: with no server they fail at once saying how to start one.
 */
export async function connect(): Promise<Connected> {
  return connectTo(await findTemporalServer({ log }));
}

/** Finds or starts a Temporal server (left running for the Web UI) and connects a client. */
export async function connectOrStart(): Promise<Connected> {
  return connectTo(await ensureTemporalServer({ detached: true, log }));
}

async function connectTo(server: TemporalServer): Promise<Connected> {
  const config = loadConfig();
  const client = new Client({
    connection: await connectClient(server.endpoint),
    namespace: server.namespace,
    ...(config.encryptionKeys ? { dataConverter: createDataConverter(config.encryptionKeys) } : {}),
  });
  const agents = new AgentClient({
    client,
    taskQueue: config.taskQueue,
    onStartRetry: ({ attempt, attempts, delayMs, reason }) =>
      log(`start refused (${reason}); trying again in ${delayMs / 1000} s (${attempt + 1} of ${attempts})`),
  });
  const added = await ensureSearchAttributes(agents.client, server.namespace);
  if (added.length > 0) log(`registered search attributes ${added.join(', ')}`);
  return { config, server, agents };
}

export interface RunningWorker {
  worker: Worker;
  models: ModelSetup;
  /** Resolves when the worker has stopped (after `shutdown()` or a fatal error). */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

let runtimeInstalled = false;
/** Where this process's workers' warnings and errors go: the terminal, a line each, unless a command routes them. */
let workerLog = (entry: LogEntry): void => void process.stderr.write(`${terseLogEntry(entry)}\n`);

/**
 * Sends this process's workers' log entries (WARN and above) to `sink` instead of stderr: `eval`
 * keeps its progress readable while expected activity failures go to a file. Call before startWorker.
 */
export function routeWorkerLog(sink: (entry: LogEntry) => void): void {
  workerLog = sink;
}

/** The SDK logs every worker state change at INFO; people running the CLI need warnings only, a line each. */
function installQuietRuntime(): void {
  if (runtimeInstalled) return;
  const { DefaultLogger, Runtime } = require('@temporalio/worker') as typeof import('@temporalio/worker');
  Runtime.install({ logger: new DefaultLogger('WARN', (entry) => workerLog(entry)) });
  runtimeInstalled = true;
}

export async function startWorker(
  { config, server }: Connected,
  extraTools: readonly ToolDefinition[] = [],
  options: Pick<
    AgentWorkerOptions,
    'onModelReply' | 'events' | 'mcp' | 'a2a' | 'deployment' | 'agents' | 'guardrails' | 'policy'
  > & {
    wrapTools?: (tools: readonly ToolDefinition[]) => ToolDefinition[];
    /** Providers besides the configured ones, by provider name (`eval`'s replay of recorded replies). */
    extraModels?: Readonly<Record<string, ModelProvider>>;
  } = {},
): Promise<RunningWorker> {
  const { wrapTools = (t) => [...t], extraModels = {}, ...workerOptions } = options;
  // Loaded here, not at the top: every CLI command imports this file, and most only connect a
  // client; the worker's modules cost a third of a second of CPU per spawn (issue 80).
  const { createAgentWorker } = require('../../worker') as typeof import('../../worker');
  const { setupModels } = require('./model-setup') as typeof import('./model-setup');
  const { cachedWorkflowBundle, workflowBuildId } =
    require('./cached-workflow-bundle') as typeof import('./cached-workflow-bundle');
  const { createEventBus } = require('../../events/create-event-bus') as typeof import('../../events/create-event-bus');
  installQuietRuntime();
  const models = await setupModels(config, log);
  const workflowBundle = await cachedWorkflowBundle({
    cacheDir: path.join(thoughtlinePaths(findProjectRoot()).dir, 'workflow-bundles'),
    ...(config.encryptionKeys ? { failureConverterPath: FAILURE_CONVERTER_PATH } : {}),
    workflowStackTraces: config.workflowStackTraces,
    log,
  });
  const connection = await connectNative(server.endpoint);
  // A bus the caller passes (serve --with-worker: its own) is theirs to close; one made here is ours.
  const ownBus =
    !options.events && config.events
      ? createEventBus(config.events, { ...(config.eventsToken ? { token: config.eventsToken } : {}), log })
      : undefined;
  const worker = await createAgentWorker({
    workflowBundle,
    connection,
    namespace: server.namespace,
    taskQueue: config.taskQueue,
    tools: wrapTools([...BUILT_IN_TOOLS, ...extraTools]),
    models: { ...models.models, ...extraModels },
    endpoints: models.endpoints,
    // The Temporal API key too: a tool that read it from the environment must not put it in a chain.
    secrets: [...models.secrets, ...(server.endpoint.apiKey ? [server.endpoint.apiKey] : [])],
    ...(config.modelRegistry
      ? { isModelAllowed: (p: string, m: string) => isModelAllowed(config.modelRegistry!, p, m) }
      : {}),
    workerOptions: {
      // Its code's build, for `run` to tell it from another checkout's worker on the same queue.
      identity: cliWorkerIdentity(workflowBuildId(config.encryptionKeys ? FAILURE_CONVERTER_PATH : undefined)),
      ...(config.encryptionKeys ? { dataConverter: createDataConverter(config.encryptionKeys) } : {}),
    },
    ...(config.tenantLimits ? { tenantLimits: config.tenantLimits } : {}),
    ...(config.cacheFile ? { cacheFile: config.cacheFile } : {}),
    workflowStackTraces: config.workflowStackTraces,
    ...(ownBus ? { events: ownBus } : {}),
    ...workerOptions,
  }).catch(async (err: unknown) => {
    await ownBus?.close();
    throw err;
  });
  const done = worker.run().finally(async () => {
    await connection.close();
    await models.close();
    // After the worker drained: the last events (a run's end) are flushed within the bus's deadline.
    await ownBus?.close();
  });
  return {
    worker,
    models,
    done,
    shutdown: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

export const webUiLink = (server: TemporalServer, workflowId: string): string | undefined =>
  server.uiUrl
    ? `${server.uiUrl}/namespaces/${server.namespace}/workflows/${encodeURIComponent(workflowId)}`
    : undefined;
