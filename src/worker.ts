import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@temporalio/client';
import {
  NativeConnection,
  Runtime,
  Worker,
  bundleWorkflowCode,
  type BundleOptions,
  type WorkerOptions,
} from '@temporalio/worker';
import { createActivities, type ActivityDeps } from './activities';
import { createAgentRegistry } from './agents/agent-registry';
import type { AgentDefinitionInit } from './domain/agents/agent-definition';
import { wellFormedFailures } from './activities/well-formed-failures';
import { ConversationCache } from './activities/conversation/conversation-cache';
import { KnownTexts } from './activities/conversation/known-texts';
import { DEFAULT_CONVERSATION_CACHE_BYTES, knownTextChars } from './activities/model-activities';
import { modelContextQuery, modelConversationQuery } from './workflows/messages';
import { createTenantActivities } from './activities/tenant-activities';
import { createWorkerRunEvents, type RunEventPublisher } from './events/run-event-sinks';
import type { TenantLimitsConfigInit } from './domain/identity/tenant-limits';
import { DEFAULT_NAMESPACE, DEFAULT_TASK_QUEUE } from './domain';
import type { ToolDefinition } from './tools/define-tool';
import type { ScorerDefinition } from './eval/define-scorer';
import { uniqueGuardrails, type GuardrailDefinition } from './guardrails/define-guardrail';
import { QUIET_BUNDLER, quietBundlerLogger } from './quiet-bundler';
import { localToolsWithoutCache } from './tools/local-tools-without-cache';
import { providerWarnings } from './activities/models/provider-warnings';
import { modelsOutsideAllowList } from './tools/models-outside-allow-list';
import { createToolRegistry } from './tools/tool-registry';
import { parseMcpConfig } from './activities/mcp/load-mcp-config';
import { createMcpTools } from './activities/mcp/mcp-tools';
import { mcpAuthSecrets } from './activities/mcp/mcp-http-auth';
import { a2aSecrets, parseA2aSettings, type A2aSettingsInit } from './activities/a2a/a2a-settings';
import { mcpSecrets, type McpConfigInit } from './domain/tools/mcp-config';
import { telemetryBundleOptions, telemetryFromEnv } from './telemetry';
import type { LoadedPolicy } from './governance/load-visibility-policy';
import { resolveVersion, setCurrentVersion, type ResolvedVersion, type WorkerDeployment } from './deployment';
import { connectNative, endpointOf, loadConnectionSettings } from './connection';
import { lazyRunCache } from './activities/cache/lazy-run-cache';
import { nativeSha256Hex } from './activities/conversation/native-sha256-hex';
import { useSha256Hex } from './domain/text/sha256-hex';
import { openSqliteRunCache, runCacheFile } from './activities/cache/sqlite-run-cache';

export interface AgentWorkerOptions {
  /**
   * Default: one opened with Temporal's standard environment configuration (TEMPORAL_* variables
   * and the temporal.toml profile they select; docs/operations.md, "Connecting to a secured
   * cluster or Temporal Cloud"), closed when the worker stops. Its API key is then redacted like
   * `secrets`.
   */
  connection?: NativeConnection;
  /**
   * Bytes of conversations this worker keeps so that a model call records only what is new
   * (default 64 MiB), and a quarter of it again for the texts its tools returned, which the next
   * call names instead of carrying. A call whose run or texts are not kept here asks the run (a query).
   */
  conversationCacheBytes?: number;
  /**
   * The SQLite file where results runs may reuse across runs are kept (`cache` in a run's input:
   * tool results, model replies, plans; docs/caching.md). Opened on the first call that asks for
   * it, so a worker whose runs never cache creates nothing. Default `.thoughtline/cache.sqlite`
   * under the working directory (the CLI's worker: THOUGHTLINE_CACHE_FILE).
   */
  cacheFile?: string;
  /** Default: the environment's (TEMPORAL_NAMESPACE or the profile's) when `connection` is opened from it, else 'default'. */
  namespace?: string;
  taskQueue?: string;
  tools: readonly ToolDefinition[];
  /**
   * Agents runs may start by name (`agent` in the input, `thoughtline run --agent`, `POST /v1/runs
   * { agent }`): `defineAgent(...)` results or plain objects of the same shape, checked here; one
   * per id. A run resolves its definition once, when it starts, and keeps it. Default none.
   */
  agents?: readonly AgentDefinitionInit[];
  /**
   * MCP servers whose tools this worker offers, named `<server>__<tool>`, in the format desktop
   * clients use: `{ mcpServers: { fs: { command, args, env } | { url, headers } } }` (see
   * docs/mcp.md). Their `env` and `headers` values are redacted like `secrets`.
   */
  mcp?: McpConfigInit;
  /**
   * Remote A2A agents sub-agent definitions may call (`a2a: { card }`, docs/a2a-remote-agents.md):
   * `{ allow: [origins or card URLs], auth?: { [origin]: { bearerEnv } }, allowAddresses?: { [host]: [IPs or CIDR] } }`.
   * Default none: every remote agent is refused. The bearer tokens are redacted like `secrets`.
   */
  a2a?: A2aSettingsInit;
  /**
   * Scorers evaluation cases and evaluations may name (`defineScorer(...)`), run by the
   * `scoreRun` activity after each evaluation run; one per name. Default none.
   */
  scorers?: readonly ScorerDefinition[];
  /**
   * Guardrails runs and agent definitions may name (`defineGuardrail(...)`, docs/guardrails.md),
   * run by the `checkGuardrails` activity at their stage; one per name. Default none.
   */
  guardrails?: readonly GuardrailDefinition[];
  models: ActivityDeps['models'];
  /**
   * Named endpoints: registry entries with their own base URL, API key or region (an EU and a US
   * deployment side by side), as `{ provider, model }`. Runs reach them through a model registry
   * (`endpoints` in their model settings); the worker balances a group's calls across them.
   */
  endpoints?: ActivityDeps['endpoints'];
  /** Values redacted from tool results and errors, e.g. API keys. */
  secrets?: readonly string[];
  /** Receives model output as it streams (never stored in history). */
  onModelDelta?: ActivityDeps['onModelDelta'];
  /**
   * Where the worker publishes run events (steps, status, approvals, sub-agents, end, model text
   * deltas) as they happen, e.g. an EventBus from `createEventBus(url)`. Called synchronously and
   * never awaited; what it throws is dropped. Default none.
   */
  events?: RunEventPublisher;
  /**
   * The visibility policy (`visibilityPolicyFromEnv(...)` or `--policy FILE`): with OpenTelemetry
   * content capture on (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true), each step's
   * content is recorded as its `telemetry.view` shows it. Default none: the `developer` view, with
   * secrets and sensitive fields redacted. Read it before creating the worker: a policy that
   * cannot be read must stop the worker from starting (VisibilityPolicyError).
   */
  policy?: LoadedPolicy;
  /** Receives every whole model reply, e.g. `createReplyRecorder(file)`. */
  onModelReply?: ActivityDeps['onModelReply'];
  /** Model governance, e.g. `(p, m) => isModelAllowed(registry, p, m)`. */
  isModelAllowed?: ActivityDeps['isModelAllowed'];
  /** Per-tenant limits on concurrent runs and tokens per hour (runs name their tenant in `caller`); default none. */
  tenantLimits?: TenantLimitsConfigInit;
  /** A prebuilt workflow bundle (tests build one per run); default: bundle src/workflows at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /**
   * False: workflow code takes no stack traces (NO_STACK_TRACES_MODULE). The SDK otherwise takes
   * one of every promise a run makes, for its stack-trace query: about an eighth of the workflow
   * thread's CPU (docs/scale.md). Off, the query (the Web UI's Stack Trace tab) and a workflow
   * error's stack name no frame; the chain is unchanged. Default true, as the SDK has it. A
   * prebuilt `workflowBundle` must preload the module itself (`bundlerOptionsWith`), or the worker
   * refuses to start (TypeError).
   */
  workflowStackTraces?: boolean;
  /**
   * Worker Deployment Versioning: the worker declares this deployment and a build id (default:
   * the package version and a hash of its workflow bundle), runs are pinned to the version that
   * started them, and by default this version is made current (it takes every new run). Default
   * none: an unversioned worker. On one task queue, use versioned workers or unversioned ones,
   * not both (docs/operations.md#deploying-a-new-version).
   */
  deployment?: WorkerDeployment;
  /** Anything else Temporal's Worker takes, e.g. `maxCachedWorkflows`. */
  workerOptions?: Partial<WorkerOptions>;
}

/** Path of the workflow bundle's entry; works from src/ (TypeScript) and dist/ (compiled). */
export const WORKFLOWS_PATH = path.join(__dirname, 'workflows');

/**
 * Modules the workflow bundle loads once per V8 context and shares between runs (the bundler's
 * `preloadModules`), instead of evaluating them again for every run: every module of the
 * workflows but their entry, a list generated from the bundle's module graph at build (see
 * workflows/preload-workflow-modules.ts). Part of
 * WORKFLOW_BUNDLER_OPTIONS, which is what to pass when you bundle workflows yourself.
 */
export const PRELOAD_MODULES: readonly string[] = [path.join(__dirname, 'workflows', 'preload-workflow-modules')];

/**
 * A module to preload when workflow code should take no stack traces (AgentWorkerOptions'
 * `workflowStackTraces: false`): what to add to `preloadModules` when you bundle yourself, or
 * pass `bundlerOptionsWith({ workflowStackTraces: false })`. See workflows/no-stack-traces.ts.
 */
export const NO_STACK_TRACES_MODULE: string = path.join(__dirname, 'workflows', 'no-stack-traces');

/**
 * The workflow interceptor modules every Thoughtline bundle holds: each run's at-rest work, run as
 * its activations conclude (workflows/at-rest-interceptors.ts). A bundle without them still
 * works: a run then waits for that work with a condition, four promises more a run.
 */
export const WORKFLOW_INTERCEPTOR_MODULES: readonly string[] = [
  path.join(__dirname, 'workflows', 'at-rest-interceptors'),
];

/**
 * Every option Thoughtline's workflow bundle is built with: PRELOAD_MODULES,
 * WORKFLOW_INTERCEPTOR_MODULES, and a source map
 * of lines only, without the sources' text. The SDK source-maps the stack of every promise a
 * workflow makes (for its stack-trace query); a map of every column made that a tenth of a
 * replay's CPU and held ~25 MB more per workflow thread, and the text (read only for
 * `showStackTraceSources`, off by default) doubled the bundle. Stack traces still name the file,
 * line and function. Pass these when you bundle yourself:
 * `bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, ...WORKFLOW_BUNDLER_OPTIONS })`.
 */
export const WORKFLOW_BUNDLER_OPTIONS: Readonly<
  Pick<BundleOptions, 'preloadModules' | 'webpackConfigHook' | 'workflowInterceptorModules'>
> = {
  preloadModules: [...PRELOAD_MODULES],
  workflowInterceptorModules: [...WORKFLOW_INTERCEPTOR_MODULES],
  webpackConfigHook: (config) => ({ ...config, devtool: 'inline-nosources-cheap-module-source-map' }),
};

/** PRELOAD_MODULES, and NO_STACK_TRACES_MODULE when stack traces are off. */
const preloadModulesFor = (workflowStackTraces = true): string[] => [
  ...PRELOAD_MODULES,
  ...(workflowStackTraces ? [] : [NO_STACK_TRACES_MODULE]),
];

/**
 * WORKFLOW_BUNDLER_OPTIONS with more interceptor modules (telemetry's) after Thoughtline's own,
 * and NO_STACK_TRACES_MODULE preloaded when `workflowStackTraces` is false.
 */
export function bundlerOptionsWith(
  more: { workflowInterceptorModules?: string[]; workflowStackTraces?: boolean } = {},
): Pick<BundleOptions, 'preloadModules' | 'webpackConfigHook' | 'workflowInterceptorModules'> {
  return {
    ...WORKFLOW_BUNDLER_OPTIONS,
    preloadModules: preloadModulesFor(more.workflowStackTraces),
    workflowInterceptorModules: [...WORKFLOW_INTERCEPTOR_MODULES, ...(more.workflowInterceptorModules ?? [])],
  };
}

/** What Worker.create bundles with; it takes interceptor modules through `interceptors.workflowModules` instead. */
const { workflowInterceptorModules: _ownInterceptors, ...ownBundlerOptions } = WORKFLOW_BUNDLER_OPTIONS;

/** Composition root: tools and model providers become activities on one Worker. */
export async function createAgentWorker(options: AgentWorkerOptions): Promise<Worker> {
  if (options.connection) return createWorkerOn(options.connection, options);
  const settings = loadConnectionSettings({ namespace: options.namespace });
  const connection = await connectNative(endpointOf(settings));
  const worker = await createWorkerOn(connection, {
    ...options,
    namespace: settings.namespace,
    // A tool that read the key from the environment must not put it in a chain.
    secrets: [...(options.secrets ?? []), ...(settings.apiKey ? [settings.apiKey] : [])],
  }).catch(async (err: unknown) => {
    await connection.close();
    throw err;
  });
  closeWhenStopped(worker, () => connection.close());
  return worker;
}

async function createWorkerOn(connection: NativeConnection, options: AgentWorkerOptions): Promise<Worker> {
  // Off (undefined) unless OTEL_* variables are set: then no interceptor, sink or bundle module is added.
  const telemetry = telemetryFromEnv();
  if (telemetry && options.workflowBundle) telemetry.checkBundle(options.workflowBundle);
  const stackTraces = options.workflowStackTraces !== false;
  // Only a reused V8 context preloads modules: in a context per run the module would never load.
  if (!stackTraces && options.workerOptions?.reuseV8Context === false)
    throw new TypeError(
      'workflowStackTraces is false, which needs reuseV8Context (the SDK default): a context per run does not preload NO_STACK_TRACES_MODULE.',
    );
  if (!stackTraces && options.workflowBundle && !bundleHoldsModule(options.workflowBundle, 'no-stack-traces'))
    throw new TypeError(
      'workflowStackTraces is false, but the prebuilt workflowBundle does not preload NO_STACK_TRACES_MODULE, so its runs would still take stack traces: build it with bundlerOptionsWith({ workflowStackTraces: false }).',
    );
  const outside = modelsOutsideAllowList(options.tools, options.isModelAllowed);
  if (outside) throw new TypeError(outside);
  const stalls = localToolsWithoutCache(options.tools, options.workerOptions?.maxCachedWorkflows);
  if (stalls) Runtime.instance().logger.warn(stalls);
  // Once, at start: a provider that cannot work as set up (no API key) says what its runs will meet.
  for (const warning of providerWarnings(options.models)) Runtime.instance().logger.warn(warning);
  // The activities hash every conversation they resolve: natively here, the same digest as the workflow's.
  useSha256Hex(nativeSha256Hex);
  // The sink is registered even without a publisher, so workflows never call an unknown sink.
  const runEvents = createWorkerRunEvents(
    telemetry ? telemetry.events(options.events, options.policy) : options.events,
  );
  const onModelDelta = options.events ? bothDeltas(runEvents.onModelDelta, options.onModelDelta) : options.onModelDelta;
  const mcpConfig = options.mcp ? parseMcpConfig(options.mcp, "The worker's `mcp` option") : undefined;
  const a2a = options.a2a ? parseA2aSettings(options.a2a, "The worker's `a2a` option") : undefined;
  const secrets = [
    ...(options.secrets ?? []),
    ...(mcpConfig ? mcpSecrets(mcpConfig) : []),
    // The secrets `auth` names; a name not set in the environment fails the start here.
    ...(mcpConfig ? mcpAuthSecrets(mcpConfig, process.env) : []),
    ...(a2a ? a2aSecrets(a2a) : []),
  ];
  const mcp = mcpConfig ? createMcpTools(mcpConfig) : undefined;
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const taskQueue = options.taskQueue ?? DEFAULT_TASK_QUEUE;
  const version = options.deployment
    ? resolveVersion(options.deployment, options.workflowBundle ?? (await bundleOwnWorkflows(stackTraces)))
    : undefined;
  // With encryption on, queries and the quota's replies are encrypted too: this client needs the same converter.
  const client = new Client({
    connection,
    namespace,
    ...(options.workerOptions?.dataConverter ? { dataConverter: options.workerOptions.dataConverter } : {}),
  });
  const conversationBytes = options.conversationCacheBytes ?? DEFAULT_CONVERSATION_CACHE_BYTES;
  const runCache = workerRunCache(options.cacheFile);
  const activities = createActivities({
    tools: createToolRegistry(options.tools),
    agents: createAgentRegistry(options.agents ?? []),
    ...(options.scorers ? { scorers: uniqueScorers(options.scorers) } : {}),
    ...(options.guardrails ? { guardrails: uniqueGuardrails(options.guardrails) } : {}),
    ...(mcp ? { mcp } : {}),
    ...(a2a ? { a2a } : {}),
    models: options.models,
    ...(options.endpoints ? { endpoints: options.endpoints } : {}),
    secrets,
    ...(onModelDelta ? { onModelDelta } : {}),
    ...(options.events ? { onToolProgress: runEvents.onToolProgress } : {}),
    ...(options.onModelReply ? { onModelReply: options.onModelReply } : {}),
    ...(options.isModelAllowed ? { isModelAllowed: options.isModelAllowed } : {}),
    cache: runCache,
    conversations: {
      cache: new ConversationCache(conversationBytes),
      texts: new KnownTexts(knownTextChars(conversationBytes)),
      ask: (workflowId, runId, hash) =>
        client.workflow
          .getHandle(workflowId, runId)
          .query(modelConversationQuery, hash)
          .then((messages) => messages ?? undefined),
      askContext: (workflowId, runId, hash) =>
        client.workflow
          .getHandle(workflowId, runId)
          .query(modelContextQuery, hash)
          .then((context) => context ?? undefined),
    },
  });
  // Every worker serves the tenant quota's activities: quota workflows run on the agent task queue.
  const tenantActivities = createTenantActivities({
    client,
    limits: options.tenantLimits ?? { tenants: {} },
    taskQueue,
  });
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    activities: { ...activities, ...tenantActivities },
    // A cancelled run reaches its model call at the next heartbeat sent; send them at most 1 s
    // apart (the default can be 24 s) so a cancel stops a stream within about a second.
    maxHeartbeatThrottleInterval: '1 second',
    // A run's next workflow task goes to its last worker's sticky queue, and the server keeps
    // sending it there for up to 10 s after that worker's last poll, dead or not. Moved to any
    // worker after 2 s (the SDK's default is 10 s), a run whose worker was killed mid-call takes
    // its next step within about 8 s: 5 s heartbeat timeout, 1 s retry interval, 2 s here. A live
    // worker too busy to start it in 2 s costs a replay on another worker, not a billable action.
    stickyQueueScheduleToStartTimeout: '2 seconds',
    ...(version
      ? { workflowBundle: version.workflowBundle, workerDeploymentOptions: version.options }
      : options.workflowBundle
        ? { workflowBundle: options.workflowBundle }
        : {
            workflowsPath: WORKFLOWS_PATH,
            bundlerOptions: { ...ownBundlerOptions, preloadModules: preloadModulesFor(stackTraces) },
          }),
    ...options.workerOptions,
    // When Worker.create bundles the workflows, webpack's module report stays off the terminal.
    plugins: [...(options.workerOptions?.plugins ?? []), QUIET_BUNDLER],
    sinks: { ...options.workerOptions?.sinks, ...runEvents.sinks, ...telemetry?.sinks },
    interceptors: {
      ...options.workerOptions?.interceptors,
      // Telemetry outermost: it sees failures as wellFormedFailures leaves them, classified and redacted.
      activity: [
        ...(telemetry ? [telemetry.activity] : []),
        wellFormedFailures(secrets),
        ...(options.workerOptions?.interceptors?.activity ?? []),
      ],
      // A prebuilt bundle must hold them already (bundleWorkflowCode's workflowInterceptorModules).
      ...(!options.workflowBundle && !version
        ? {
            workflowModules: [
              ...(options.workerOptions?.interceptors?.workflowModules ?? []),
              ...WORKFLOW_INTERCEPTOR_MODULES,
              ...(telemetry?.workflowModules ?? []),
            ],
          }
        : {}),
    },
  });
  if (mcp) closeWhenStopped(worker, () => mcp.close());
  closeWhenStopped(worker, async () => runCache.close());
  if (telemetry) closeWhenStopped(worker, () => telemetry.flush());
  // Before it polls: a run started right after this worker is created comes to it.
  if (version && options.deployment?.makeCurrent !== false)
    await setCurrentVersion(client, version.deploymentName, version.buildId, { beforePolling: true });
  return worker;
}

/** The version a worker made by createAgentWorker declares; undefined for an unversioned one. */
export function workerVersion(worker: Worker): Pick<ResolvedVersion, 'deploymentName' | 'buildId'> | undefined {
  const v = worker.options.workerDeploymentOptions;
  return v?.useWorkerVersioning ? { deploymentName: v.version.deploymentName, buildId: v.version.buildId } : undefined;
}

/** The workflow bundle Worker.create would make, made here so a versioned worker can hash it. */
async function bundleOwnWorkflows(workflowStackTraces: boolean): Promise<{ code: string }> {
  return {
    code: (
      await bundleWorkflowCode({
        workflowsPath: WORKFLOWS_PATH,
        ...bundlerOptionsWith({ ...telemetryBundleOptions(), workflowStackTraces }),
        logger: quietBundlerLogger(),
      })
    ).code,
  };
}

/** Whether a prebuilt bundle holds a module of this file name (webpack names each module by its path); only a preload brings NO_STACK_TRACES_MODULE in. */
function bundleHoldsModule(bundle: NonNullable<WorkerOptions['workflowBundle']>, moduleName: string): boolean {
  const code = 'code' in bundle ? bundle.code : fs.readFileSync(bundle.codePath, 'utf8');
  return new RegExp(`[/\\\\]${moduleName}(\\.[jt]s)?['"]`).test(code);
}

/** Where this worker keeps results runs may reuse: opened on first use; a file that cannot be opened is logged once and caches nothing. */
function workerRunCache(file: string | undefined) {
  const at = runCacheFile(file);
  const warn = (err: unknown) =>
    Runtime.instance().logger.warn(`Run cache ${at}: ${(err as Error)?.message ?? String(err)}; calls run uncached.`);
  return lazyRunCache(() => openSqliteRunCache(at, { onError: warn }), warn);
}

/** The worker's MCP connections (and the stdio servers' processes) end when the worker does. */
function closeWhenStopped(worker: Worker, close: () => Promise<void>): void {
  const run = worker.run.bind(worker);
  worker.run = async () => {
    try {
      return await run();
    } finally {
      await close();
    }
  };
}

/** Events first (they return at once), then the caller's own listener; neither can stop the other. */
function bothDeltas(
  events: NonNullable<ActivityDeps['onModelDelta']>,
  own: ActivityDeps['onModelDelta'],
): NonNullable<ActivityDeps['onModelDelta']> {
  if (!own) return events;
  return (delta) => {
    events(delta);
    own(delta);
  };
}

/** The scorers, checked to have one definition per name. */
function uniqueScorers(scorers: readonly ScorerDefinition[]): readonly ScorerDefinition[] {
  const seen = new Set<string>();
  for (const s of scorers) {
    if (seen.has(s.name)) throw new TypeError(`Two scorers are named "${s.name}"; each name must be unique.`);
    seen.add(s.name);
  }
  return scorers;
}
