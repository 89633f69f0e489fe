import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../api-error';
import type { ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import { GENERIC_AGENT, type CatalogAgent } from '../catalog/agent-catalog';
import { RunStreamHub } from '../events/run-stream-hub';
import { a2aSettingsFrom, type A2aSettings } from './a2a-settings';
import { loadA2aSdk, type A2aSdk } from './a2a-sdk';
import { agentCardJson, agentCardOf, cardBaseUrl, UNKNOWN_PUBLIC_URL } from './agent-card';
import { hostAllowList, type HostAllowList } from '../../tools/builtin/http/host-allow-list';
import { pushNotificationsOff, pushNotificationsTo, type PushNotifications } from './push/push-notifications';
import { MAX_A2A_JSON_DEPTH, nestedDeeperThan } from './json-depth';
import { callContext, RunRequestHandler } from './run-request-handler';
import { writeSse } from './write-sse';

/** Largest JSON-RPC body taken; a message's text is bounded again as a run's task. */
export const A2A_BODY_LIMIT_BYTES = 512 * 1024;

/** JSON-RPC codes this route answers itself, before the SDK's transport sees the request. */
const INVALID_REQUEST = -32600;
/** The body types taken, as the SDK's own server takes them (and A2A v1.0's own name for JSON). */
const JSON_TYPES: ReadonlySet<string> = new Set(['application/json', 'application/a2a+json']);
const CONTENT_TYPE_MESSAGE = 'Send the body as JSON ("Content-Type: application/json").';
const PARSE_ERROR = -32700;

export interface A2aRoutesOptions {
  /** Default: read from the environment (THOUGHTLINE_PUBLIC_URL, THOUGHTLINE_A2A_PUSH_ALLOW). */
  settings?: A2aSettings;
  /** Server-side failures with their stacks; never sent to callers. */
  log?: (line: string) => void;
}

interface Loaded {
  sdk: A2aSdk;
  handler: RunRequestHandler;
  v1: InstanceType<A2aSdk['server']['JsonRpcTransportHandler']>;
  legacy: InstanceType<A2aSdk['legacy']['LegacyJsonRpcTransportHandler']>;
  push: PushNotifications;
}

const rpcError = (code: number, message: string, reason?: string) => ({
  jsonrpc: '2.0' as const,
  id: null,
  error: {
    code,
    message,
    ...(reason
      ? { data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }] }
      : {}),
  },
});

/**
 * The A2A endpoints (docs/a2a.md): an agent card per catalogue agent, public, at
 * `/a2a/:agent/.well-known/agent-card.json` (the generic agent's also at
 * `/.well-known/agent-card.json`), and its JSON-RPC endpoint `POST /a2a/:agent`, authenticated
 * like /v1. A2A v1.0 method names, and the v0.3 ones (`message/send`, `message/stream`,
 * `tasks/get`, `tasks/cancel`, `tasks/resubscribe`) when a request says A2A-Version 0.3 or
 * none. Tasks are runs: their state lives in Temporal, so any instance answers any task.
 */
export function registerA2aRoutes(app: FastifyInstance, ctx: ApiContext, options: A2aRoutesOptions = {}): void {
  const settings = options.settings ?? a2aSettingsFrom();
  const log = options.log ?? (() => {});
  const hub = new RunStreamHub(
    { agents: ctx.agents, bus: ctx.bus, safetyPollMs: 1_000, readTimeoutMs: ctx.queryTimeoutMs },
    { server: 10_000, perIdentity: 100, perTenant: 2_000 },
  );
  const open = new Set<AbortController>();
  // A bad allow-list entry throws here, when the server is built: push notifications fail closed.
  const allow = settings.pushAllow.length > 0 ? pushAllowList(settings.pushAllow) : undefined;
  const pushEnabled = allow !== undefined;
  let loading: Promise<Loaded> | undefined;
  const load = (): Promise<Loaded> =>
    (loading ??= loadA2aSdk().then((sdk) => {
      const push = allow ? pushNotificationsTo(sdk, allow, log, ctx.currentIdentity) : pushNotificationsOff(sdk.errors);
      const handler = new RunRequestHandler(sdk, ctx, hub, push, log);
      return {
        sdk,
        handler,
        v1: new sdk.server.JsonRpcTransportHandler(handler),
        legacy: new sdk.legacy.LegacyJsonRpcTransportHandler(handler),
        push,
      };
    }));

  const sendCard = async (agent: CatalogAgent | undefined, reply: FastifyReply) => {
    if (!agent) {
      const names = ctx.catalog.list().map((a) => a.name);
      const err = new ApiError('not_found', `No agent by that name; this server offers: ${names.join(', ')}.`);
      return reply.status(404).send(err.toJSON());
    }
    const baseUrl = cardBaseUrl(settings.publicUrl, app.server.address());
    if (!baseUrl) return reply.status(503).send(new ApiError('unavailable', UNKNOWN_PUBLIC_URL).toJSON());
    const { sdk } = await load();
    return reply
      .header('cache-control', 'public, max-age=300')
      .type('application/json')
      .send(agentCardJson(sdk.core, agentCardOf(agent, baseUrl, pushEnabled)));
  };

  app.register(async (scope) => {
    // The SDK's clients send application/json; A2A v1.0 also names application/a2a+json.
    scope.addContentTypeParser('application/a2a+json', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch (err) {
        done(err as Error, undefined);
      }
    });
    // Whatever fails before the transport (body too large, not JSON, wrong type): a JSON-RPC error.
    scope.setErrorHandler(async (error, _request, reply) => {
      const code = (error as { code?: string }).code;
      if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return reply
          .status(413)
          .send(
            rpcError(
              INVALID_REQUEST,
              `The request body is over ${A2A_BODY_LIMIT_BYTES} bytes, this server's limit for A2A; send a smaller message.`,
              'INVALID_PARAMS',
            ),
          );
      if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
        return reply
          .status(415)
          .send(
            rpcError(-32005, 'Send the body as JSON ("Content-Type: application/json").', 'CONTENT_TYPE_NOT_SUPPORTED'),
          );
      if (error instanceof SyntaxError || (typeof code === 'string' && code.startsWith('FST_ERR_CTP_')))
        return reply.status(400).send(rpcError(PARSE_ERROR, 'The body is not valid JSON.'));
      log(`POST /a2a: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return reply.status(500).send(rpcError(-32603, 'Internal error; the server log has the details.'));
    });

    scope.get('/.well-known/agent-card.json', (_request, reply) => sendCard(ctx.catalog.get(GENERIC_AGENT), reply));
    scope.get<{ Params: { agent: string } }>('/a2a/:agent/.well-known/agent-card.json', (request, reply) =>
      sendCard(ctx.catalog.get(request.params.agent), reply),
    );

    scope.post<{ Params: { agent: string } }>(
      '/a2a/:agent',
      { bodyLimit: A2A_BODY_LIMIT_BYTES },
      async (request, reply) => {
        const agent = ctx.catalog.get(request.params.agent);
        if (!agent)
          return reply
            .status(404)
            .send(
              rpcError(
                INVALID_REQUEST,
                `No agent named ${JSON.stringify(request.params.agent.slice(0, 100))} here; its card would be at /a2a/<agent>/.well-known/agent-card.json.`,
              ),
            );
        const mediaType = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
        if (mediaType !== undefined && !JSON_TYPES.has(mediaType))
          return reply.status(415).send(rpcError(-32005, CONTENT_TYPE_MESSAGE, 'CONTENT_TYPE_NOT_SUPPORTED'));
        let identity: Identity;
        try {
          identity = await ctx.auth.authenticate(request.headers.authorization);
        } catch (err) {
          const message =
            err instanceof ApiError && err.code !== 'internal'
              ? err.message
              : 'The token could not be checked now; retry, or use another token.';
          return reply
            .status(err instanceof ApiError && err.code === 'forbidden' ? 403 : 401)
            .header(
              'www-authenticate',
              `Bearer realm="thoughtline"${request.headers.authorization ? ', error="invalid_token"' : ''}`,
            )
            .send(rpcError(INVALID_REQUEST, message, 'UNAUTHENTICATED'));
        }
        const { sdk, v1, legacy } = await load();
        const header = request.headers['a2a-version'];
        const version = (Array.isArray(header) ? header[0] : header)?.trim() || undefined;
        const useLegacy = (version ?? '0.3') === '0.3';
        const mapError = useLegacy
          ? sdk.legacy.LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
          : sdk.server.JsonRpcTransportHandler.mapToJSONRPCError;
        // A JSON-RPC id is a string, a number or null; anything else is not echoed.
        const sentId = (request.body as { id?: unknown } | undefined)?.id;
        const id = typeof sentId === 'string' || typeof sentId === 'number' ? sentId : null;
        if (version !== undefined && version !== '0.3' && version !== '1.0')
          return reply.send({
            jsonrpc: '2.0',
            id,
            error: mapError(
              new sdk.errors.VersionNotSupportedError(`A2A-Version ${version} is not served here: use 1.0 or 0.3.`),
            ),
          });
        if (nestedDeeperThan(request.body, MAX_A2A_JSON_DEPTH))
          return reply.send({
            jsonrpc: '2.0',
            id,
            error: mapError(
              new sdk.errors.RequestMalformedError(
                `The request is nested deeper than ${MAX_A2A_JSON_DEPTH} levels; send flatter data parts.`,
              ),
            ),
          });
        const abort = new AbortController();
        open.add(abort);
        reply.raw.on('close', () => {
          abort.abort();
          open.delete(abort);
        });
        const context = callContext(sdk, { identity, agent, abort: abort.signal }, version);
        const body = request.body as Record<string, unknown>;
        const result = await (useLegacy ? legacy : v1).handle(body, context);
        if (!isAsyncIterable(result)) {
          const failed = (result as { error?: { code?: number } }).error;
          return reply.status(failed?.code === -32603 ? 500 : 200).send(result);
        }
        const iterator = result[Symbol.asyncIterator]();
        let first: IteratorResult<unknown>;
        try {
          first = await iterator.next();
        } catch (err) {
          // Refused before the stream began (unknown task, bad params): plain JSON, as the SDK does.
          return reply.send({ jsonrpc: '2.0', id, error: mapError(err) });
        }
        if (first.done) return reply.send({ jsonrpc: '2.0', id, result: null });
        await writeSse(
          reply,
          first.value,
          iterator,
          (err) => ({ jsonrpc: '2.0', id, error: mapError(err) }),
          abort.signal,
        );
        return reply;
      },
    );
  });

  // Open streams and blocking sends end when the server closes; the hub's Temporal reads settle first.
  app.addHook('preClose', async () => {
    for (const abort of open) abort.abort();
    await hub.close();
    if (loading) await (await loading).push.close();
  });
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';

function pushAllowList(entries: readonly string[]): HostAllowList {
  try {
    return hostAllowList(entries);
  } catch (err) {
    throw new Error(`THOUGHTLINE_A2A_PUSH_ALLOW: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
