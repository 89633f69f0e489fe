import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { INGEST_PATH, MAX_INGEST_BYTES, MAX_INGEST_EVENTS, PUBLISHER_ROLE } from '../../../events/ingest-limits';
import { RunEvent } from '../../../shared/run-event';
import { ApiError } from '../api-error';
import type { Identity } from '../auth/identity';
import type { ServerContext } from '../server-context';

const Batch = z.array(RunEvent).max(MAX_INGEST_EVENTS);

/**
 * `POST /v1/internal/events`: workers in other processes publish run events here (the HTTP
 * publisher). Only identities with role `publisher` may; the body is a JSON array of at most
 * 1,000 RunEvents, each checked against the schema (one bad event refuses the batch, naming its
 * path); each is published on the server's bus. 202: published, not necessarily delivered.
 */
export function registerIngestRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post(INGEST_PATH, { bodyLimit: MAX_INGEST_BYTES + 64 * 1024 }, async (request, reply) => {
    const identity = await authenticated(ctx, request.headers.authorization);
    if (!identity.roles.includes(PUBLISHER_ROLE)) {
      throw new ApiError('forbidden', `Publishing run events needs role "${PUBLISHER_ROLE}"; ${identity.id} has ${identity.roles.join(', ') || 'no roles'}.`);
    }
    const parsed = Batch.safeParse(request.body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message }));
      throw new ApiError('bad_request', `The body must be a JSON array of at most ${MAX_INGEST_EVENTS} run events; fix the events named in issues.`, issues);
    }
    for (const event of parsed.data) ctx.bus.publish(event);
    return reply.code(202).send({ accepted: parsed.data.length });
  });
}

/** The caller's identity; anything the authenticator throws that is not an ApiError means 401. */
async function authenticated(ctx: ServerContext, authorization: string | undefined): Promise<Identity> {
  try {
    return await ctx.auth.authenticate(authorization);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError('unauthenticated', `Send a valid bearer token of an identity with role "${PUBLISHER_ROLE}": ${(err as Error).message ?? 'refused'}`);
  }
}
