import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  INGEST_PATH,
  MAX_INGEST_BYTES,
  MAX_INGEST_EVENTS,
  PUBLISHER_ALL_TENANTS_ROLE,
  PUBLISHER_ROLE,
} from '../../events/ingest-limits';
import { RunEvent } from '../../domain/run/run-event';
import { ApiError } from '../api-error';
import type { Identity } from '../auth/identity';
import type { ServerContext } from '../server-context';

const Batch = z.array(RunEvent).max(MAX_INGEST_EVENTS);

/** How long a publisher's right to publish for one run is remembered: a run's tenant never changes. */
const GRANT_TTL_MS = 60_000;
const GRANT_LIMIT = 10_000;

/**
 * `POST /v1/internal/events`: workers in other processes publish run events here (the HTTP
 * publisher). Only identities with role `publisher` may, and only for the runs their tenant sees
 * (the same rule as every route: another tenant's run does not exist for them); role
 * `publisher-all-tenants` may publish for any run. The body is a JSON array of at most 1,000
 * RunEvents, each checked against the schema (one bad event refuses the batch, naming its path);
 * a batch with a run the publisher may not publish for is refused whole, before any event is
 * published. 202: published, not necessarily delivered.
 */
export function registerIngestRoute(app: FastifyInstance, ctx: ServerContext): void {
  const grants = new Map<string, number>();
  const mayPublish = async (identity: Identity, runId: string): Promise<boolean> => {
    const key = `${identity.tenant ?? ''}\u0000${identity.id}\u0000${runId}`;
    if ((grants.get(key) ?? 0) > Date.now()) return true;
    try {
      await ctx.accessRun(identity, runId);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'not_found') return false;
      throw new ApiError('unavailable', `The server could not check run ${runId} with Temporal; retry the batch.`);
    }
    if (grants.size >= GRANT_LIMIT) grants.delete(grants.keys().next().value!);
    grants.set(key, Date.now() + GRANT_TTL_MS);
    return true;
  };

  app.post(INGEST_PATH, { bodyLimit: MAX_INGEST_BYTES + 64 * 1024 }, async (request, reply) => {
    const identity = await authenticated(ctx, request.headers.authorization);
    const allTenants = identity.roles.includes(PUBLISHER_ALL_TENANTS_ROLE);
    if (!allTenants && !identity.roles.includes(PUBLISHER_ROLE)) {
      throw new ApiError(
        'forbidden',
        `Publishing run events needs role "${PUBLISHER_ROLE}" or "${PUBLISHER_ALL_TENANTS_ROLE}"; ${identity.id} has ${identity.roles.join(', ') || 'no roles'}.`,
      );
    }
    const parsed = Batch.safeParse(request.body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({
        path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
        message: i.message,
      }));
      throw new ApiError(
        'bad_request',
        `The body must be a JSON array of at most ${MAX_INGEST_EVENTS} run events; fix the events named in issues.`,
        issues,
      );
    }
    if (!allTenants) {
      const runs = [...new Set(parsed.data.map((event) => event.runId))];
      const allowed = await Promise.all(runs.map((runId) => mayPublish(identity, runId)));
      const refused = runs.filter((_, i) => !allowed[i]);
      if (refused.length > 0) {
        const tenant = identity.tenant ? `tenant ${identity.tenant}` : 'no tenant';
        throw new ApiError(
          'forbidden',
          `${identity.id} (${tenant}) may publish only for its tenant's runs; no such run is visible to it: ${refused.slice(0, 5).join(', ')}${refused.length > 5 ? ` and ${refused.length - 5} more` : ''}. A worker that runs several tenants' runs needs role "${PUBLISHER_ALL_TENANTS_ROLE}".`,
        );
      }
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
    throw new ApiError(
      'unauthenticated',
      `Send a valid bearer token of an identity with role "${PUBLISHER_ROLE}": ${(err as Error).message ?? 'refused'}`,
    );
  }
}
