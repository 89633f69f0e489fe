import Fastify, { type FastifyInstance } from 'fastify';
import type { EventBus } from '../events/event-bus';
import { createMemoryBus } from '../events/memory-bus';
import type { AgentClient } from '../client/agent-client';
import { registerRoutes, type ApiContext, type ApiRoute } from './api-route';
import { currentIdentityFrom } from './auth/current-identity';
import type { Authenticator } from './auth/identity';
import { viewFor } from './auth/view-policy';
import { DECISION_ROUTES } from './routes/decision-routes';
import { installErrorHandler } from './error-handler';
import { registerEventsRoute } from './events/events-route';
import { registerIngestRoute } from './events/ingest-route';
import { DEFAULT_QUERY_TIMEOUT_MS } from './live-read';
import { ME_ROUTES } from './routes/me-route';
import { openApiDocument } from './openapi';
import { createRunAccess } from './run-access';
import { RUNS_ROUTES } from './routes/runs-routes';
import { SCHEDULES_ROUTES } from './routes/schedules-routes';
import { TRIGGER_ROUTES } from './triggers/trigger-route';
import type { TriggerTable } from './triggers/trigger-config';
import { SCORES_ROUTES } from './routes/scores-routes';
import { DATASET_ROUTES } from './routes/dataset-routes';
import { FORK_ROUTES } from './routes/fork-route';
import { STORE_ROUTES } from './routes/store-routes';
import { COMPARE_ROUTES } from './routes/compare-route';
import { IMPORT_ROUTES } from './routes/import-route';
import { getTenantUsage } from './routes/tenant-usage-route';
import type { DecisionSigner } from './signing/decision-signer';
import type { ChainStore } from '../store/chain-store';
import type { LoadedPolicy } from '../governance';
import { createLensFor } from './policy/lens-for';
import { PREFERENCES_ROUTES } from './policy/preferences-routes';
import { createAgentCatalog, type AgentCatalog } from './catalog/agent-catalog';
import { registerA2aRoutes } from './a2a/register-a2a-routes';
import { registerAgUiRoutes } from './ag-ui/register-ag-ui-routes';
import { allowOrigins } from './cross-origin';

/** Every JSON route of the API, in the order the OpenAPI document lists them. */
export const API_ROUTES: readonly ApiRoute[] = [
  ...RUNS_ROUTES,
  ...STORE_ROUTES,
  ...COMPARE_ROUTES,
  ...IMPORT_ROUTES,
  getTenantUsage,
  ...DECISION_ROUTES,
  ...SCORES_ROUTES,
  ...DATASET_ROUTES,
  ...FORK_ROUTES,
  ...ME_ROUTES,
  ...PREFERENCES_ROUTES,
  ...SCHEDULES_ROUTES,
  ...TRIGGER_ROUTES,
];

export const DEFAULT_BODY_LIMIT_BYTES = 256 * 1024;
const API_VERSION = '1.0.0';

export interface CreateServerOptions {
  agents: AgentClient;
  auth: Authenticator;
  /** Where run events arrive from workers; default an in-process bus (`serve --with-worker`). */
  bus?: EventBus;
  /** Signs every decision sent through the server. */
  signer?: DecisionSigner;
  /** The chain store (open, migrated, fed by its projection elsewhere); reads use it, searches need it. */
  store?: ChainStore;
  /**
   * The visibility policy every read applies (with each person's preferences); absent: the
   * built-in views. A policy that cannot be read never gets here: `serve` refuses to start.
   */
  policy?: LoadedPolicy;
  /** Runs started here require decisions signed by `signer`'s keys. Needs `signer`. */
  requireSignatures?: boolean;
  /** The agents A2A and AG-UI offer (`serve --agents FILE`); default the generic agent only. */
  catalog?: AgentCatalog;
  /** The webhook triggers (`serve --triggers FILE`, loadTriggers); default none, and every trigger name is refused. */
  triggers?: TriggerTable;
  /** The folder `POST /v1/datasets/{name}/cases` appends to (`serve --datasets DIR`), a folder per tenant inside; default none (503). */
  datasets?: string;
  /** Browser origins whose pages may call the API (`serve --allow-origin`), exactly as named; default none. */
  allowOrigins?: readonly string[];
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1: reachable from this machine only. */
  host?: string;
  /** Default 256 KiB; a larger body is refused with 413. */
  bodyLimitBytes?: number;
  /** How long a request waits for a worker to answer a query (status, chain) before answering 503. Default 10 s. */
  queryTimeoutMs?: number;
  /** Server-side failures (with their stacks) and notices; never sent to clients. */
  log?: (line: string) => void;
  /** Adds more routes (the viewer's static files) before the server listens. */
  extend?: (app: FastifyInstance, ctx: ApiContext) => void;
}

export interface RunningServer {
  app: FastifyInstance;
  /** `http://host:port`, with the port actually bound. */
  url: string;
  /** Event streams open now, and the runs they follow (for health checks and the benchmark). */
  openStreams(): { watchers: number; runs: number };
  close(): Promise<void>;
}

/**
 * What every edge needs to serve runs (routes, and `mcp-server` outside this app): the options'
 * clients, access through `createRunAccess`, views and lenses from the policy.
 */
export function createApiContext(
  options: Omit<CreateServerOptions, 'port' | 'bus' | 'log'> & { bus: EventBus; log: (line: string) => void },
): ApiContext {
  const { bus, log } = options;
  return {
    agents: options.agents,
    auth: options.auth,
    currentIdentity: currentIdentityFrom(options.auth),
    bus,
    ...(options.signer ? { signer: options.signer } : {}),
    ...(options.store ? { store: options.store } : {}),
    requireSignatures: options.requireSignatures ?? false,
    queryTimeoutMs: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
    accessRun: createRunAccess(options.agents),
    viewFor: (identity, requested) => viewFor(identity, requested, options.policy?.policy),
    ...(options.policy ? { policy: options.policy } : {}),
    lensFor: createLensFor(options.policy, options.store, log),
    catalog: options.catalog ?? createAgentCatalog(),
    triggers: options.triggers ?? new Map(),
    ...(options.datasets ? { datasetsDir: options.datasets } : {}),
  };
}

/**
 * `thoughtline serve`'s HTTP app: the JSON API under /v1, its OpenAPI document, and the event
 * stream, listening once this resolves. Identity comes from `auth` only; every run is reached
 * through `accessRun`, so another tenant's run is a 404 like an unknown one.
 */
export async function createServer(options: CreateServerOptions): Promise<RunningServer> {
  if (options.requireSignatures && !options.signer)
    throw new Error('requireSignatures needs a signer: pass signer (serve: --signing-keys FILE).');
  const log = options.log ?? (() => {});
  const host = options.host ?? '127.0.0.1';
  const bus = options.bus ?? createMemoryBus();
  // forceCloseConnections: an open event stream must not hold close() forever.
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    forceCloseConnections: true,
    return503OnClosing: true,
  });
  const ctx = createApiContext({ ...options, bus, log });
  installErrorHandler(app, log);
  if (options.allowOrigins?.length) allowOrigins(app, options.allowOrigins);
  registerRoutes(app, ctx, API_ROUTES);
  const document = openApiDocument(API_ROUTES, API_VERSION);
  app.get('/v1/openapi.json', async () => document);
  const streams = registerEventsRoute(app, ctx);
  registerIngestRoute(app, ctx);
  registerA2aRoutes(app, ctx, { log });
  registerAgUiRoutes(app, ctx);
  options.extend?.(app, ctx);
  await app.listen({ port: options.port, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    app,
    url,
    openStreams: () => ({ watchers: streams.watcherCount(), runs: streams.runCount() }),
    close: async () => {
      await app.close();
      if (!options.bus) await bus.close();
    },
  };
}
