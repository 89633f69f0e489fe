import fs from 'node:fs';
import path from 'node:path';
import { createEventBus } from '../../../events/create-event-bus';
import type { EventBus } from '../../../events/event-bus';
import { createMemoryBus } from '../../../events/memory-bus';
import { UsageError } from '../../spec/usage-error';
import { loadMcpConfig } from '../../../activities/mcp/load-mcp-config';
import { loadAgentsModule, loadGuardrailsModule, loadToolsModule } from '../../setup/load-tools-module';
import { versionLine } from '../operations/dev';
import { startStandingWorker, type Versioning } from '../../setup/standing-worker';
import { connectOrStart, log, type RunningWorker } from '../../setup/runtime';
import { createCombinedAuthenticator } from '../../../server/auth/combined-authenticator';
import { createTokenFileAuthenticator } from '../../../server/auth/token-file-authenticator';
import { createServer } from '../../../server/create-server';
import { createDevTokenFile, isLoopback } from '../../../server/dev-token';
import { missingOidcFlags, oidcFromFlags, type OidcFlags } from '../../../server/flags/oidc-from-flags';
import { serverSigner } from '../../setup/decision-keyring';
import { registerViewerRoute } from '../../../server/routes/viewer-route';
import { untilSignal } from '../../setup/until-signal';
import { openStoreFor, storeSettingsOf } from '../store-and-audit/store';
import {
  createChainStoreProjection,
  type ChainStoreProjection,
} from '../../../server/chain-store/chain-store-projection';
import type { ChainStore } from '../../../store/chain-store';
import { createAgentCatalog } from '../../../server/catalog/agent-catalog';
import { loadTriggers, type TriggerTable } from '../../../server/triggers/trigger-config';
import { visibilityPolicyFromEnv, VisibilityPolicyError, type LoadedPolicy } from '../../../governance';

export interface ServeHttpOptions {
  /** Default 8080. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  withWorker: boolean;
  tools?: string;
  /** The module whose `agents` the protocol endpoints offer (A2A cards, AG-UI); default `tools`'s. */
  agents?: string;
  /** MCP servers' tools for the worker, as for `worker --mcp`. */
  mcp?: string;
  /** How the worker is versioned (see `worker`). */
  versioning?: Versioning;
  tokens?: string;
  oidc: OidcFlags;
  /** The decision-signing keyring (`--signing-keys`); default decision-keyring.ts's, made on first start. */
  signingKeys?: string;
  requireSignatures: boolean;
  /** The chain store it keeps (`--store`): over THOUGHTLINE_STORE; `off` keeps none. */
  store?: string;
  /** The visibility policy file (`--policy`): over THOUGHTLINE_VISIBILITY_POLICY. */
  policy?: string;
  /** The webhook triggers file (`--triggers`): over THOUGHTLINE_TRIGGERS; none: every trigger name is refused. */
  triggers?: string;
  /** Where `POST /v1/datasets/{name}/cases` appends cases (`--datasets DIR`); none: it answers 503. */
  datasets?: string;
  /** Browser origins whose pages may call the API (`--allow-origin`), checked; default none. */
  allowOrigins?: readonly string[];
}

/** `--tokens`, else THOUGHTLINE_TOKENS, else `.thoughtline/tokens.json` under the working directory. */
export const defaultTokenFile = (): string =>
  process.env.THOUGHTLINE_TOKENS || path.join('.thoughtline', 'tokens.json');

/**
 * `serve`: the HTTP API (and the viewer) in front of the Temporal server, until Ctrl-C or
 * SIGTERM, then closed with its worker (exit code 0; 1 when the worker stopped by itself). With no token file and no OIDC it makes a token file
 * with one token for `you`, prints the URL to open once, and listens on loopback only.
 */
export async function serveHttp(options: ServeHttpOptions): Promise<number> {
  const host = options.host ?? '127.0.0.1';
  const missing = missingOidcFlags(options.oidc);
  if (missing.length > 0)
    throw new UsageError(
      `OIDC needs --oidc-issuer, --oidc-audience and --oidc-jwks-url; missing ${missing.join(', ')}.`,
    );
  for (const flag of ['tools', 'mcp', 'unversioned', 'keep-current'] as const) {
    const given =
      flag === 'tools' || flag === 'mcp'
        ? options[flag]
        : flag === 'unversioned'
          ? options.versioning?.unversioned
          : options.versioning?.keepCurrent;
    if (given && !options.withWorker)
      throw new UsageError(
        `--${flag} is for the worker: add --with-worker, or give --${flag} to "thoughtline worker".`,
      );
  }
  // Read first: a bad config file or agent module is reported before anything starts.
  const catalogModule = options.agents ?? options.tools;
  const catalog = createAgentCatalog(catalogModule ? loadAgentsModule(catalogModule) : undefined);
  const mcp = options.mcp ? await loadMcpConfig(options.mcp) : undefined;
  // A policy that cannot be read stops serve here: it never serves without the policy it was given.
  let policy: LoadedPolicy | undefined;
  try {
    policy = await visibilityPolicyFromEnv(process.env, options.policy);
  } catch (err) {
    if (!(err instanceof VisibilityPolicyError)) throw err;
    log(err.message);
    return 2;
  }
  // Triggers without their secrets stop serve here: a trigger never answers unsigned.
  const triggersFile = options.triggers ?? process.env.THOUGHTLINE_TRIGGERS;
  let triggers: TriggerTable | undefined;
  try {
    triggers = triggersFile ? loadTriggers(triggersFile) : undefined;
  } catch (err) {
    log((err as Error).message);
    return 2;
  }
  const tokenFile = path.resolve(options.tokens ?? defaultTokenFile());
  const oidc = await oidcFromFlags(options.oidc);
  let devToken: string | undefined;
  if (!fs.existsSync(tokenFile) && !oidc) {
    if (!isLoopback(host))
      throw new UsageError(
        `No token file at ${tokenFile} and no OIDC: create tokens first (thoughtline token --id NAME --roles ROLES) before serving on ${host}.`,
      );
    devToken = createDevTokenFile(tokenFile);
    log(
      `created ${tokenFile} with a token for "you" (roles developer, auditor, approver); add people with: thoughtline token --id NAME --roles ROLES`,
    );
  }
  const tokens = fs.existsSync(tokenFile) || !oidc ? createTokenFileAuthenticator({ file: tokenFile, log }) : undefined;
  const auth = createCombinedAuthenticator({ ...(tokens ? { tokens } : {}), ...(oidc ? { oidc } : {}) });
  // Always a signer: the runs started here verify the roles this server's tokens and OIDC vouch for.
  const signer = serverSigner(options.signingKeys, log);
  const storeSettings = storeSettingsOf(options.store);

  const connected = await connectOrStart();
  const bus = serverBus(connected.config.events);
  let worker: RunningWorker | undefined;
  let store: ChainStore | undefined;
  let projection: ChainStoreProjection | undefined;
  let stopped: number | undefined;
  try {
    // A store that cannot be opened (PostgreSQL down) costs the store, never serving: reads go to Temporal.
    store =
      storeSettings.kind === 'off'
        ? undefined
        : await openStoreFor(storeSettings).catch((err: Error) => {
            log(`serving without the chain store: it cannot be opened (${err.message}); restart to retry`);
            return undefined;
          });
    if (store) {
      projection = createChainStoreProjection({
        store,
        agents: connected.agents,
        bus,
        log,
        retentionDays: connected.config.storeRetentionDays,
      });
      // Not awaited: the first sweep reads Temporal and must not hold up serving.
      void projection.start();
    }
    worker = options.withWorker
      ? await startStandingWorker(connected, options.tools ? loadToolsModule(options.tools) : [], {
          events: bus,
          ...(options.versioning ? { versioning: options.versioning } : {}),
          ...(options.tools
            ? { agents: loadAgentsModule(options.tools), guardrails: loadGuardrailsModule(options.tools) }
            : {}),
          ...(mcp ? { mcp } : {}),
          // The same policy as the server's: the worker's OpenTelemetry content follows it too.
          ...(policy ? { policy } : {}),
        })
      : undefined;
    const server = await createServer({
      agents: connected.agents,
      auth,
      bus,
      ...(projection ? { store: projection.readable() } : {}),
      signer,
      ...(policy ? { policy } : {}),
      requireSignatures: options.requireSignatures,
      catalog,
      ...(triggers ? { triggers } : {}),
      ...(options.datasets ? { datasets: path.resolve(options.datasets) } : {}),
      ...(options.allowOrigins?.length ? { allowOrigins: options.allowOrigins } : {}),
      port: options.port ?? 8080,
      host,
      log,
      extend: (app) => registerViewerRoute(app),
    });
    // Listening for the signal before saying it serves: a SIGTERM sent on seeing the line must
    // find the handler, not the default action (the process killed, exit code lost).
    const signalled = untilSignal();
    log(
      `serving ${server.url} (API under /v1, OpenAPI at /v1/openapi.json)${store ? `, keeping the chain store ${store.where}` : ''}${policy ? `, applying the visibility policy ${policy.path}${policy.deployment ? ` (deployment ${policy.deployment})` : ''}` : ''}${worker ? ` with a worker on task queue "${connected.config.taskQueue}", ${versionLine(worker.worker, options.versioning?.keepCurrent)}` : ''}; tokens from ${tokenFile}${oidc ? ' and OIDC' : ''}. Ctrl-C stops it.`,
    );
    process.stdout.write(
      devToken ? `Open ${server.url}/#token=${devToken}\n` : `Viewer at ${server.url}/ (sign in with your token)\n`,
    );
    const ended = await Promise.race([
      signalled,
      (worker?.done ?? new Promise<never>(() => {})).then(() => 'worker' as const),
    ]);
    // What it waits for, said before the wait: a drain of the worker's tasks can take seconds.
    const waits = [
      'the HTTP server to close (open event streams end)',
      ...(worker ? ["the worker's tasks in flight to finish (runs go on on other workers, or when one starts)"] : []),
      ...(store ? ['the chain store to close'] : []),
    ];
    log(
      `${ended === 'worker' ? 'the worker stopped by itself' : `${ended === 'SIGINT' ? 'Ctrl-C' : ended}`}: stopping serve: waiting for ${waits.join(', ')}`,
    );
    await server.close();
    stopped = ended === 'worker' ? 1 : 0;
    return stopped;
  } finally {
    await projection?.close();
    await store?.close();
    await worker?.shutdown();
    await bus.close();
    await connected.agents.client.connection.close();
    if (stopped !== undefined) log('serve stopped');
  }
}

/**
 * Where the server hears run events: a Redis bus when THOUGHTLINE_EVENTS names one (many workers
 * and servers), else its own memory bus, fed by an in-process worker and by workers elsewhere
 * posting to `/v1/internal/events` (THOUGHTLINE_EVENTS=http://this-server on their side).
 */
function serverBus(events: string | undefined): EventBus {
  return events && /^rediss?:\/\//.test(events) ? createEventBus(events, { log }) : createMemoryBus();
}
