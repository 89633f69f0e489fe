import fs from 'node:fs';
import path from 'node:path';
import { loadMcpConfig } from '../../../activities/mcp/load-mcp-config';
import { createEventBus } from '../../../events/create-event-bus';
import type { EventBus } from '../../../events/event-bus';
import { createMemoryBus } from '../../../events/memory-bus';
import {
  createRunFollowerHub,
  GET_RUN_TOOL,
  reserveStdoutForMcp,
  serveMcpStdio,
  startMcpHttp,
  stdioIdentity,
  StdioIdentityError,
} from '../../../mcp-server';
import { createCombinedAuthenticator } from '../../../server/auth/combined-authenticator';
import { createTokenFileAuthenticator } from '../../../server/auth/token-file-authenticator';
import type { LoadedPolicy } from '../../../governance';
import { createAgentCatalog } from '../../../server/catalog/agent-catalog';
import { createApiContext } from '../../../server/create-server';
import { missingOidcFlags, oidcFromFlags, type OidcFlags } from '../../../server/flags/oidc-from-flags';
import { deciderSigner, serverSigner } from '../../setup/decision-keyring';
import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { flag, text } from '../../spec/flags';
import { loadAgentsModule, loadGuardrailsModule, loadToolsModule } from '../../setup/load-tools-module';
import { connectOrStart, log, type RunningWorker } from '../../setup/runtime';
import { startStandingWorker } from '../../setup/standing-worker';
import { versionLine } from '../operations/dev';
import { UsageError } from '../../spec/usage-error';
import { OIDC_OPTIONS, readOidcFlags } from '../../spec/oidc-options';
import { actingPerson } from '../people-in-the-loop/decide-call';
import { POLICY_OPTION, readPolicyOption } from '../../spec/policy-option';
import { defaultTokenFile } from './serve-http';
import { untilSignal } from '../../setup/until-signal';

export interface McpServerOptions {
  /** Serve Streamable HTTP on this port (0: a free one) instead of stdio. */
  http?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The module whose `agents` are the tools; default `tools`'s. */
  agents?: string;
  withWorker: boolean;
  tools?: string;
  mcp?: string;
  tokens?: string;
  oidc: OidcFlags;
  signingKeys?: string;
  requireSignatures: boolean;
  /** The visibility policy every read applies (`--policy FILE`, else THOUGHTLINE_VISIBILITY_POLICY), as serve's. */
  policy?: LoadedPolicy;
}

/**
 * `mcp-server`: every catalogue agent as an MCP tool, over stdio (default: nothing but MCP on
 * stdout, notices on stderr) or Streamable HTTP at /mcp (`--http PORT`, authenticated like
 * `serve`), until the client closes stdin, Ctrl-C or SIGTERM; with `--with-worker`, a worker in
 * this process as for `serve --with-worker`.
 */
export async function mcpServer(options: McpServerOptions): Promise<number> {
  // First, before anything can print: stdout carries MCP only.
  const mcpOut = options.http === undefined ? reserveStdoutForMcp() : undefined;
  const missing = missingOidcFlags(options.oidc);
  if (missing.length > 0)
    throw new UsageError(
      `OIDC needs --oidc-issuer, --oidc-audience and --oidc-jwks-url; missing ${missing.join(', ')}.`,
    );
  for (const name of ['tools', 'mcp'] as const)
    if (options[name] && !options.withWorker)
      throw new UsageError(
        `--${name} is for the worker: add --with-worker, or give --${name} to "thoughtline worker".`,
      );
  const host = options.host ?? '127.0.0.1';
  // Read first: a bad agents module or MCP config is reported before anything starts.
  const catalogModule = options.agents ?? options.tools;
  const catalog = createAgentCatalog(catalogModule ? loadAgentsModule(catalogModule) : undefined);
  const mcp = options.mcp ? await loadMcpConfig(options.mcp) : undefined;
  if (catalog.get(GET_RUN_TOOL))
    throw new UsageError(
      `An agent is named "${GET_RUN_TOOL}", the name of the tool that reads runs: rename the agent.`,
    );
  const tokenFile = path.resolve(options.tokens ?? defaultTokenFile());
  const oidc = await oidcFromFlags(options.oidc);
  if (options.http !== undefined && !fs.existsSync(tokenFile) && !oidc)
    throw new UsageError(
      `No token file at ${tokenFile} and no OIDC: create a token first (thoughtline token --id NAME --roles ROLES), then send it as "Authorization: Bearer <token>".`,
    );
  // A missing token file refuses every token (fail closed); OIDC alone needs no file.
  const tokens = fs.existsSync(tokenFile) || !oidc ? createTokenFileAuthenticator({ file: tokenFile, log }) : undefined;
  const auth = createCombinedAuthenticator({ ...(tokens ? { tokens } : {}), ...(oidc ? { oidc } : {}) });
  // Over HTTP always a signer, as serve's; over stdio the keyring given or found (decision-keyring.ts).
  const signer =
    options.http !== undefined ? serverSigner(options.signingKeys, log) : deciderSigner(options.signingKeys);
  if (options.requireSignatures && !signer)
    throw new UsageError(
      '--require-signatures over stdio needs a keyring to sign with: --signing-keys FILE, or THOUGHTLINE_SIGNING_KEYS.',
    );

  const connected = await connectOrStart();
  const identity =
    options.http === undefined
      ? await stdioIdentity({
          token: process.env.THOUGHTLINE_TOKEN,
          auth,
          local: actingPerson(connected.config, {}),
        }).catch(async (err: unknown) => {
          await connected.agents.client.connection.close();
          if (err instanceof StdioIdentityError) throw new UsageError(err.message);
          throw err;
        })
      : undefined;
  const bus = busFor(connected.config.events);
  let worker: RunningWorker | undefined;
  try {
    worker = options.withWorker
      ? await startStandingWorker(connected, options.tools ? loadToolsModule(options.tools) : [], {
          events: bus,
          ...(options.tools
            ? { agents: loadAgentsModule(options.tools), guardrails: loadGuardrailsModule(options.tools) }
            : {}),
          ...(mcp ? { mcp } : {}),
          // The same policy as the reads': the worker's OpenTelemetry content follows it too, as serve's.
          ...(options.policy ? { policy: options.policy } : {}),
        })
      : undefined;
    const ctx = createApiContext({
      agents: connected.agents,
      auth,
      bus,
      ...(signer ? { signer } : {}),
      requireSignatures: options.requireSignatures,
      // The views and lenses of `serve --policy`: a run shows no more through MCP than through /v1.
      ...(options.policy ? { policy: options.policy } : {}),
      catalog,
      log,
    });
    const hub = createRunFollowerHub(ctx);
    const deps = { ctx, hub, log };
    const signalled = untilSignal();
    const tools = catalog
      .list()
      .map((a) => a.name)
      .join(', ');
    const onWorker = worker
      ? ` with a worker on task queue "${connected.config.taskQueue}", ${versionLine(worker.worker)}`
      : '';
    let ended: unknown;
    if (identity && mcpOut) {
      const stdio = await serveMcpStdio(deps, identity, mcpOut);
      log(
        `MCP server on stdio as ${identity.id}${identity.tenant ? ` (tenant ${identity.tenant})` : ''}${onWorker}${applying(options.policy)}; tools: ${tools}, get_run.`,
      );
      ended = await Promise.race([
        signalled,
        stdio.closed,
        worker?.done.then(() => 'worker' as const) ?? new Promise(() => {}),
      ]);
      await stdio.close();
    } else {
      const http = await startMcpHttp(deps, { port: options.http ?? 0, host });
      log(
        `MCP server at ${http.url} (Streamable HTTP; tokens from ${tokenFile}${oidc ? ' and OIDC' : ''})${onWorker}${applying(options.policy)}; tools: ${tools}, get_run. Ctrl-C stops it.`,
      );
      ended = await Promise.race([signalled, worker?.done.then(() => 'worker' as const) ?? new Promise(() => {})]);
      await http.close();
    }
    await hub.close();
    if (ended === 'worker') log('the worker stopped by itself; stopping');
    return ended === 'worker' ? 1 : 0;
  } finally {
    await worker?.shutdown();
    await bus.close();
    await connected.agents.client.connection.close();
  }
}

/** What the start line says of the policy, as serve's does. */
const applying = (policy: LoadedPolicy | undefined): string =>
  policy
    ? `, applying the visibility policy ${policy.path}${policy.deployment ? ` (deployment ${policy.deployment})` : ''}`
    : '';

/** A Redis bus when THOUGHTLINE_EVENTS names one (workers elsewhere publish there); else this process's own. */
function busFor(events: string | undefined): EventBus {
  return events && /^rediss?:\/\//.test(events) ? createEventBus(events, { log }) : createMemoryBus();
}

/** `--http PORT`: a port number, 0 for a free one. */
function httpPort(line: CommandLine): number | undefined {
  const raw = line.text('http');
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!(raw.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= 65_535))
    throw new UsageError(`--http takes a port number (0 for a free one), not "${raw}".`);
  return n;
}

export const MCP_SERVER_COMMAND: CommandSpec = {
  name: 'mcp-server',
  group: 'Serve and protocols',
  summary: 'every agent as an MCP tool, over stdio or Streamable HTTP',
  description:
    "Offer every agent as an MCP tool (docs/mcp-server.md): over stdio by default (stdout carries MCP only; as THOUGHTLINE_TOKEN's identity, else the local user), until the client or Ctrl-C stops it. Approvals and questions are elicitations.",
  examples: ['thoughtline mcp-server --with-worker', 'thoughtline mcp-server --http 8090 --with-worker'],
  args: [],
  options: {
    http: text('PORT', 'Streamable HTTP at /mcp instead of stdio (0: a free port), authenticated like serve'),
    host: text('H', 'with --http: the address to listen on', { default: '127.0.0.1' }),
    agents: text('FILE', 'the module whose "agents" are the tools', { default: "--tools's" }),
    'with-worker': flag('also run a worker in this process'),
    tools: text('FILE', 'with --with-worker: a JS module exporting "tools" and "agents"'),
    mcp: text('FILE', 'with --with-worker: MCP servers whose tools the worker offers'),
    tokens: text('FILE', 'with --http: token hashes', {
      env: 'THOUGHTLINE_TOKENS',
      default: '.thoughtline/tokens.json',
    }),
    ...OIDC_OPTIONS,
    'signing-keys': text('FILE', 'sign decisions with these Ed25519 keys', {
      env: 'THOUGHTLINE_SIGNING_KEYS',
      default: '.thoughtline/signing-keys.json (with --http: made on first start)',
    }),
    'require-signatures': flag('runs started here refuse decisions without a valid signature'),
    ...POLICY_OPTION,
  },
  run: async (l) => {
    const given = (name: string): string | undefined => l.text(name);
    const http = httpPort(l);
    if (given('host') !== undefined && http === undefined) throw new UsageError('--host is for --http PORT.');
    const oidc = readOidcFlags(l);
    // Read before anything starts: mcp-server never serves without the policy it was given.
    const policy = await readPolicyOption(l);
    return mcpServer({
      ...(http !== undefined ? { http } : {}),
      ...(given('host') ? { host: given('host')! } : {}),
      ...(given('agents') ? { agents: given('agents')! } : {}),
      withWorker: l.flag('with-worker'),
      ...(given('tools') ? { tools: given('tools')! } : {}),
      ...(given('mcp') ? { mcp: given('mcp')! } : {}),
      ...(given('tokens') ? { tokens: given('tokens')! } : {}),
      oidc,
      ...(given('signing-keys') ? { signingKeys: given('signing-keys')! } : {}),
      requireSignatures: l.flag('require-signatures'),
      ...(policy ? { policy } : {}),
    });
  },
};
