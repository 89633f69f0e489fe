import type { FastifyReply } from 'fastify';
import { ApiError } from '../api-error';
import type { ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import { liveRead } from '../live-read';
import { closedRunEnding } from '../protocols/viewed-ending';
import { statusInLens, subChainShown } from '../policy/apply-lens';
import { RunStreamHub, type WatcherCaps } from '../events/run-stream-hub';
import { Watcher } from '../events/watcher';
import { AgUiSseWriter } from './ag-ui-sse-writer';
import type { AgUiRunNames } from './ag-ui-translator';

/** The caps and timings of the events route's defaults: AG-UI streams are event streams too. */
const CAPS: WatcherCaps = { server: 20_000, perIdentity: 100, perTenant: 2_000 };
const WRITER = { pingMs: 15_000, maxBufferedBytes: 1 << 20, drainTimeoutMs: 10_000 };
const MAX_QUEUED_EVENTS = 1_000;

/** What to stream: whose, which run, from where, and under which names. */
export interface AgUiStreamRequest {
  identity: Identity;
  workflowId: string;
  /** The last step the client has (Last-Event-ID); 0 for the whole run. */
  after: number;
  names: AgUiRunNames;
  /** The view asked for (`?view=`); the identity's default when absent. */
  view?: string;
}

/**
 * The AG-UI routes' run streams: the same durable, resumable stream as /v1/runs/{id}/events (a
 * RunStreamHub fed by the event bus, the chain read from Temporal to catch up), each watcher
 * writing AG-UI. No polling of Temporal beyond the hub's own safety net.
 */
export class AgUiStreams {
  private readonly hub: RunStreamHub;
  private readonly open = new Set<AgUiSseWriter>();

  constructor(private readonly ctx: ApiContext) {
    this.hub = new RunStreamHub({ agents: ctx.agents, bus: ctx.bus, safetyPollMs: 1_000, readTimeoutMs: 10_000 }, CAPS);
  }

  /** Checks access, view and caps (throwing ApiError before a byte is sent), then streams the run. */
  async stream(reply: FastifyReply, request: AgUiStreamRequest): Promise<void> {
    const { identity, workflowId } = request;
    const access = await this.ctx.accessRun(identity, workflowId);
    const view = this.ctx.viewFor(identity, request.view);
    const lens = await this.ctx.lensFor?.(identity, view, access);
    const sendsSteps = subChainShown(lens, access) === 'full';
    const owner = { id: identity.id, ...(identity.tenant ? { tenant: identity.tenant } : {}) };
    const full = this.open.size >= CAPS.server ? 'server' : this.hub.fullFor(owner);
    if (full === 'server')
      throw new ApiError('unavailable', 'This server holds as many event streams as it allows; retry in a moment.');
    if (full)
      throw new ApiError(
        'too_many_requests',
        `You (or your tenant) hold as many open event streams as allowed; close one first.`,
      );
    reply.hijack();
    let joined: ReturnType<typeof this.hub.join<Watcher>> | undefined;
    const readStatus = async () =>
      statusInLens(await liveRead(() => this.ctx.agents.status(workflowId, view), this.ctx.queryTimeoutMs), view, lens);
    const readEnding = async () => (await closedRunEnding(this.ctx, identity, workflowId, { view })).ending;
    const writer = new AgUiSseWriter(reply.raw, WRITER, request.names, readStatus, readEnding, () => {
      this.open.delete(writer);
      if (joined) this.hub.leave(joined.stream, joined.listener);
    });
    this.open.add(writer);
    writer.open();
    if (writer.closed) return;
    joined = this.hub.join(
      workflowId,
      owner,
      (stream) => new Watcher(stream, writer, view, request.after, MAX_QUEUED_EVENTS, lens, sendsSteps),
    );
    void joined.listener.start();
  }

  /** Ends every open stream and waits for the hub's Temporal reads (server shutdown). */
  async close(): Promise<void> {
    for (const writer of [...this.open]) writer.close();
    await this.hub.close();
  }
}
