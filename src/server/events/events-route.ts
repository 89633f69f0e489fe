import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../api-error';
import { RunIdParams } from '../api-schemas';
import type { Identity } from '../auth/identity';
import type { ServerContext } from '../server-context';
import { resumePoint } from './resume-point';
import { endedInStore, replayFromStore, storedEnding } from './store-replay';
import { RunStreamHub } from './run-stream-hub';
import { SseWriter } from './sse-writer';
import { subChainShown } from '../policy/apply-lens';
import type { LensTarget } from '../policy/lens-for';
import { storedTarget } from '../routes/store-read';
import { Watcher } from './watcher';
import { SubAgentFollowing, type ChildGate } from './child-follow';
import type { ViewerRole } from '../../domain';

export interface EventsRouteOptions {
  /** Open streams the server holds at most; one more is answered 503. Default 20,000. */
  maxWatchers?: number;
  /** Open streams one identity holds at most; one more is answered 429. Default 100. */
  maxWatchersPerIdentity?: number;
  /** Open streams one tenant's people hold at most (tenant-less callers count as one tenant); one more is answered 429. Default 2,000. */
  maxWatchersPerTenant?: number;
  /** Events one watcher queues at most before it throws them away and catches up from the chain. Default 1,000. */
  maxQueuedEvents?: number;
  /** Default 15,000 ms. */
  pingMs?: number;
  /** The safety net's period while a run has watchers. Default 1,000 ms. */
  safetyPollMs?: number;
  /** Unread bytes after which a watcher is dropped. Default 1 MiB. */
  maxBufferedBytes?: number;
  /** A full socket that does not drain in this time is dropped. Default 10,000 ms. */
  drainTimeoutMs?: number;
  /** Temporal reads (chain, status, describe) given up after this. Default 10,000 ms. */
  readTimeoutMs?: number;
  /** Running sub-agents one live stream follows at most (their steps sent as `sub_agent_step`); 0 follows none. Default 10. */
  maxSubAgentsFollowed?: number;
  /** Steps one followed sub-agent sends at most on its parent's stream. Default 1,000. */
  maxSubAgentSteps?: number;
}

/** What the server (and tests) can see of the route's streams. */
export interface EventsRoute {
  watcherCount(): number;
  runCount(): number;
}

function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  if (err.code === 'unauthenticated') reply.header('www-authenticate', 'Bearer');
  return reply.code(err.status).type('application/json').send(err.toJSON());
}

async function authenticate(ctx: ServerContext, authorization: string | undefined): Promise<Identity> {
  try {
    return await ctx.auth.authenticate(authorization);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(
      'unauthenticated',
      `Send "Authorization: Bearer <token>" with a valid token (${err instanceof Error ? err.message : 'refused'}).`,
    );
  }
}

/**
 * `GET /v1/runs/:id/events?view=&after=&details=`: the run's events as Server-Sent Events, in the
 * caller's view narrowed by their lens (the policy, and their preferences unless `details=true`). Authentication, the run's tenant, the view and the resume point are checked before a
 * byte is streamed (401/404/403/400 as JSON); a server at its cap of streams answers 503.
 */
export function registerEventsRoute(
  app: FastifyInstance,
  ctx: ServerContext,
  options: EventsRouteOptions = {},
): EventsRoute {
  const caps = {
    server: options.maxWatchers ?? 20_000,
    perIdentity: options.maxWatchersPerIdentity ?? 100,
    perTenant: options.maxWatchersPerTenant ?? 2_000,
  };
  const hub = new RunStreamHub(
    {
      agents: ctx.agents,
      bus: ctx.bus,
      safetyPollMs: options.safetyPollMs ?? 1_000,
      readTimeoutMs: options.readTimeoutMs ?? 10_000,
    },
    caps,
  );
  const writerOptions = {
    pingMs: options.pingMs ?? 15_000,
    maxBufferedBytes: options.maxBufferedBytes ?? 1 << 20,
    drainTimeoutMs: options.drainTimeoutMs ?? 10_000,
  };
  const open = new Set<SseWriter>();

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
    '/v1/runs/:id/events',
    async (request, reply) => {
      let checked;
      try {
        const identity = await authenticate(ctx, request.headers.authorization);
        const params = RunIdParams.safeParse(request.params);
        if (!params.success)
          throw new ApiError(
            'bad_request',
            'Give a run id in the path: /v1/runs/<id>/events (1 to 1,000 characters).',
            [{ path: ['id'], message: params.error.issues[0]?.message ?? 'invalid' }],
          );
        const after = resumePoint(request.headers['last-event-id'], request.query.after);
        const { view: requested, details: detailsAsked, subAgentSteps } = request.query;
        if (requested !== undefined && typeof requested !== 'string')
          throw new ApiError('bad_request', 'Give view once: auditor, developer or end_user.', [
            { path: ['view'], message: 'expected a string' },
          ]);
        if (detailsAsked !== undefined && detailsAsked !== 'true' && detailsAsked !== 'false')
          throw new ApiError('bad_request', 'Give details once, as true or false.', [
            { path: ['details'], message: 'true or false' },
          ]);
        if (subAgentSteps !== undefined && subAgentSteps !== 'true' && subAgentSteps !== 'false')
          throw new ApiError('bad_request', 'Give subAgentSteps once, as true or false.', [
            { path: ['subAgentSteps'], message: 'true or false' },
          ]);
        // An ended run the store holds whole is replayed from it to its end, without Temporal.
        const stored = await endedInStore(ctx.store, identity, params.data.id);
        const access = stored ? undefined : await ctx.accessRun(identity, params.data.id);
        const view = ctx.viewFor(identity, requested);
        const target: LensTarget = stored ? storedTarget(stored.run) : access!;
        const lens = await ctx.lensFor?.(identity, view, target, { details: detailsAsked === 'true' });
        const sendsSteps = subChainShown(lens, target) === 'full';
        const owner = { id: identity.id, ...(identity.tenant ? { tenant: identity.tenant } : {}) };
        // Replays are open streams too: they count toward the server's cap.
        const full = open.size >= caps.server ? 'server' : hub.fullFor(owner);
        if (full === 'server')
          throw new ApiError(
            'unavailable',
            'This server holds as many event streams as it allows; retry in a moment or use another instance.',
          );
        if (full === 'identity')
          throw new ApiError(
            'too_many_requests',
            `You hold ${caps.perIdentity} open event streams, as many as one identity may; close one (a tab, a watcher) before opening another.`,
          );
        if (full === 'tenant')
          throw new ApiError(
            'too_many_requests',
            `Your tenant's people hold ${caps.perTenant} open event streams, as many as one tenant may; close one before opening another.`,
          );
        const gate = childGate(ctx, identity, view, detailsAsked === 'true');
        checked = stored
          ? { after, view, stored, lens, sendsSteps }
          : {
              after,
              view,
              workflowId: access!.workflowId,
              owner,
              lens,
              sendsSteps,
              gate,
              followsSubAgents: subAgentSteps !== 'false',
            };
      } catch (err) {
        if (err instanceof ApiError) return sendError(reply, err);
        throw err;
      }
      reply.hijack();
      if ('stored' in checked) {
        const replay = new SseWriter(reply.raw, writerOptions, () => open.delete(replay));
        open.add(replay);
        replay.open();
        const { stored, view, lens, sendsSteps } = checked;
        const ending = () =>
          storedEnding(ctx.agents, stored.run, view, lens, !sendsSteps, options.readTimeoutMs ?? 10_000);
        if (!replay.closed)
          await replayFromStore(ctx.store!, stored, replay, view, checked.after, lens, sendsSteps, ending);
        return;
      }
      const { after, view, workflowId, owner, lens, sendsSteps, gate, followsSubAgents } = checked;
      let joined: ReturnType<typeof hub.join<Watcher>> | undefined;
      const writer = new SseWriter(reply.raw, writerOptions, () => {
        open.delete(writer);
        following.close();
        if (joined) hub.leave(joined.stream, joined.listener);
      });
      const maxQueued = options.maxQueuedEvents ?? 1_000;
      const following = new SubAgentFollowing({
        hub,
        owner,
        view,
        gate,
        out: writer,
        emit: (event) => joined?.listener.sendSubAgentStep(event),
        maxChildren: followsSubAgents ? (options.maxSubAgentsFollowed ?? 10) : 0,
        maxStepsPerChild: options.maxSubAgentSteps ?? 1_000,
        maxQueued,
      });
      open.add(writer);
      writer.open();
      if (writer.closed) return;
      joined = hub.join(
        workflowId,
        owner,
        (stream) => new Watcher(stream, writer, view, after, maxQueued, lens, sendsSteps, { following, path: [] }),
      );
      void joined.listener.start();
    },
  );

  // Open streams never end by themselves: end them so the server can close; and wait for the
  // streams' Temporal reads, so whoever closes the Temporal connection next leaves none queued.
  app.addHook('preClose', async () => {
    for (const writer of [...open]) writer.close();
    await hub.close();
  });

  return { watcherCount: () => hub.watcherCount, runCount: () => hub.runCount };
}

/**
 * The gate a sub-agent's run passes before its steps go out on its parent's stream: the checks
 * its own stream makes for this caller (its tenant, the caller's view, their lens for the child,
 * `subChains`), with only a full chain passing; anything refused or unreadable shows nothing.
 */
function childGate(ctx: ServerContext, identity: Identity, view: ViewerRole, details: boolean): ChildGate {
  return async (workflowId) => {
    try {
      const access = await ctx.accessRun(identity, workflowId);
      const lens = await ctx.lensFor?.(identity, view, access, { details });
      return subChainShown(lens, access) === 'full' ? { lens } : undefined;
    } catch {
      return undefined;
    }
  };
}
