import type { ApiContext } from '../server/api-route';
import { RunStreamHub } from '../server/events/run-stream-hub';

/** Runs the server follows at once, in all and for one person; one more call is told to fetch its result later. */
export const FOLLOW_CAPS = { server: 2_000, perIdentity: 100, perTenant: 1_000 } as const;

/**
 * The runs `mcp-server` follows, as `serve`'s event streams do: one bus subscription per run and
 * a safety net that describes it about once a second while anyone follows (events lost, or no
 * worker publishing to this process's bus).
 */
export const createRunFollowerHub = (ctx: Pick<ApiContext, 'agents' | 'bus'>): RunStreamHub =>
  new RunStreamHub({ agents: ctx.agents, bus: ctx.bus, safetyPollMs: 1_000, readTimeoutMs: 10_000 }, FOLLOW_CAPS);
