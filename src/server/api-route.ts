import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiError } from './api-error';
import type { Identity } from './auth/identity';
import { declaredHeaders } from './declared-headers';
import { badRequest } from './error-handler';
import type { RunFacts } from './run-access';
import type { ServerContext } from './server-context';

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The server's context as its own routes see it: also the run's facts, and whether runs require signed decisions. */
export interface ApiContext extends ServerContext {
  accessRun(identity: Identity, workflowId: string): Promise<RunFacts>;
  requireSignatures: boolean;
  /** How long a request waits for a worker to answer a query before it is 503. */
  queryTimeoutMs: number;
}

/** What a route's handler gets: the context, who calls, and its inputs already parsed by its schemas. */
export interface RouteInput<P, Q, B, H = undefined> {
  ctx: ApiContext;
  identity: Identity;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  headers: Out<H>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * One API route: its schemas (the same ones parse requests and describe them in the OpenAPI
 * document) and its handler. Public routes take no token.
 */
export interface ApiRoute<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  H extends Schema | undefined = Schema | undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify's form, `/v1/runs/:id`; the OpenAPI document writes `{id}`. */
  url: string;
  operationId: string;
  summary: string;
  public?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** Headers the route reads, by their usual spelling (`Idempotency-Key`); each may be sent once. */
  headers?: H;
  /** Runs on the raw body before its schema, for refusals that deserve their own words. */
  precheck?: (rawBody: unknown) => void;
  /** The largest body this route reads, in bytes, when it is not the server's (`bodyLimitBytes`). */
  bodyLimit?: number;
  /**
   * The body is read as bytes, whatever its content type, and reaches the handler as a Buffer
   * (`request.body`) with no schema: for a signature over the exact bytes sent (webhook triggers).
   */
  rawBody?: boolean;
  /** A body may be left out altogether (it then parses as `{}`). */
  optionalBody?: boolean;
  response: {
    status: number;
    description: string;
    schema: Schema;
    /** Another success status with the same body (an idempotent start's repeat, 200), sent by the handler itself. */
    alsoAnswers?: { status: number; description: string };
  };
  /** Other answers this route gives, by status, for the document. */
  errors: number[];
  handle(input: RouteInput<P, Q, B, H>): Promise<unknown>;
}

/** Keeps each route's handler typed by its own schemas while routes share one table. */
export const defineRoute = <
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
  H extends Schema | undefined = undefined,
>(
  route: ApiRoute<P, Q, B, H>,
): ApiRoute => route as unknown as ApiRoute;

const PUBLIC: Identity = { id: 'anonymous', roles: [], via: 'in-process' };

function parse(schema: Schema | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(parsed.error, where);
  return parsed.data;
}

/** Fails closed: whatever an authenticator throws that is not an ApiError (a network failure fetching keys) is a 401. */
async function authenticate(ctx: ApiContext, authorization: string | undefined): Promise<Identity> {
  try {
    return await ctx.auth.authenticate(authorization);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError('unauthenticated', 'The token could not be checked now; retry, or use another token.');
  }
}

/** Registers each route: authenticate first (a 401 says nothing about the body), then parse, then handle. */
export function registerRoutes(app: FastifyInstance, ctx: ApiContext, routes: readonly ApiRoute[]): void {
  for (const route of routes) {
    if (route.rawBody) {
      // Its own scope, so the byte parser applies to this route only.
      app.register(async (scope) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
        registerRoutes(scope, ctx, [{ ...route, rawBody: false }]);
      });
      continue;
    }
    app.route({
      method: route.method,
      url: route.url,
      ...(route.bodyLimit !== undefined ? { bodyLimit: route.bodyLimit } : {}),
      handler: async (request, reply) => {
        const identity = route.public ? PUBLIC : await authenticate(ctx, request.headers.authorization);
        route.precheck?.(request.body);
        const params = parse(route.params, request.params, 'path');
        const query = parse(route.query, request.query, 'query');
        const headers = parse(route.headers, declaredHeaders(route.headers, request.raw.rawHeaders), 'header');
        const body = parse(route.body, request.body ?? (route.optionalBody ? {} : undefined), 'body');
        const result = await route.handle({ ctx, identity, params, query, body, headers, request, reply } as RouteInput<
          Schema,
          Schema,
          Schema,
          Schema
        >);
        // A handler that answered with another status of its own (a redelivery's 200) has sent already.
        if (reply.sent) return reply;
        return reply.status(route.response.status).send(result);
      },
    });
  }
}
