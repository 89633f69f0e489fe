import { ZodError } from 'zod';
import {
  createSchedule,
  deleteSchedule,
  describeSchedule,
  listSchedules,
  pauseSchedule,
  type ScheduleOwner,
} from '../../client/schedules/agent-schedules';
import { ScheduleExistsError, ScheduleNotFoundError, ScheduleRefusedError } from '../../client/errors/schedule-errors';
import { AgentInputConflictError } from '../../client/errors/agent-input-conflict-error';
import { ApiError } from '../api-error';
import { defineRoute, type ApiRoute } from '../api-route';
import type { Identity } from '../auth/identity';
import { badRequest } from '../error-handler';
import type { AgentCatalog } from '../catalog/agent-catalog';
import { signedDecisionKeys } from '../protocols/protocol-run-input';
import {
  CreatedScheduleResponse,
  CreateScheduleBody,
  DeletedScheduleResponse,
  PauseScheduleBody,
  ScheduleListResponse,
  ScheduleNameParams,
  ScheduleRecord,
} from './schedule-schemas';

/**
 * Roles that may create, pause, resume and delete schedules: a schedule spends money on its own
 * every time it fires. Read per request from the caller's authenticated identity; anyone of the
 * tenant may list and read them.
 */
export const SCHEDULE_ADMIN_ROLES: readonly string[] = ['developer', 'operator'];

function requireScheduleAdmin(identity: Identity): void {
  if (identity.roles.some((role) => SCHEDULE_ADMIN_ROLES.includes(role))) return;
  throw new ApiError(
    'forbidden',
    `Creating, pausing and deleting schedules needs the ${SCHEDULE_ADMIN_ROLES.join(' or ')} role; yours: ${identity.roles.join(', ') || 'none'}.`,
  );
}

const ownerOf = (identity: Identity): ScheduleOwner => ({
  id: identity.id,
  ...(identity.tenant !== undefined ? { tenant: identity.tenant } : {}),
});

/** The client's typed schedule errors as the API's. */
function asApiError(err: unknown): never {
  if (err instanceof ScheduleNotFoundError) throw new ApiError('not_found', err.message);
  if (err instanceof ScheduleExistsError) throw new ApiError('conflict', err.message);
  if (err instanceof ScheduleRefusedError || err instanceof AgentInputConflictError)
    throw new ApiError('bad_request', err.message);
  if (err instanceof ZodError) throw badRequest(err, 'body');
  throw err;
}

/**
 * Whether `agent` is one this deployment's workers register, as far as this server knows: refused
 * (400, naming the agents it knows) when its catalogue was declared and lacks it; a warning when
 * the catalogue was not declared and so cannot tell. A run of an agent no worker registers would
 * fail at its start, every time the schedule fires.
 */
function checkScheduledAgent(catalog: AgentCatalog, agent: string): { warning?: string } {
  if (!catalog.declared)
    return {
      warning: `This server was started without --agents (or --tools), so it cannot check that a worker registers agent "${agent}"; its runs fail at their start if none does.`,
    };
  const known = catalog.get(agent);
  if (known && 'agent' in known.start) return {};
  const registered = catalog
    .list()
    .filter((a) => 'agent' in a.start)
    .map((a) => a.name);
  throw new ApiError(
    'bad_request',
    `No agent named "${agent}" is registered by this deployment's workers (this server's --agents); schedulable: ${registered.join(', ') || 'none'}.`,
  );
}

const schedulePath = (name: string) => `/v1/schedules/${encodeURIComponent(name)}`;

export const createScheduleRoute = defineRoute({
  method: 'POST',
  url: '/v1/schedules',
  operationId: 'createSchedule',
  summary:
    "Create a schedule: a Temporal Schedule that starts the named agent with the input on a cron or interval spec; its runs are the caller's (1 action; each run it starts 3)",
  body: CreateScheduleBody,
  response: {
    status: 201,
    description: 'The schedule created, with a warning when the server cannot check that a worker registers its agent',
    schema: CreatedScheduleResponse,
  },
  errors: [400, 401, 403, 409, 503],
  async handle({ ctx, identity, body, reply }) {
    requireScheduleAdmin(identity);
    const checked = checkScheduledAgent(ctx.catalog, body.agent);
    // Its runs hold the server's keys as a run started here does (required with --require-signatures).
    const record = await createSchedule(ctx.agents, body, ownerOf(identity), signedDecisionKeys(ctx)).catch(asApiError);
    reply.header('location', schedulePath(record.name));
    return { ...record, ...checked };
  },
});

export const listSchedulesRoute = defineRoute({
  method: 'GET',
  url: '/v1/schedules',
  operationId: 'listSchedules',
  summary: "The caller's tenant's schedules, by name, with their next and latest runs",
  response: { status: 200, description: 'The schedules', schema: ScheduleListResponse },
  errors: [401, 503],
  handle: async ({ ctx, identity }) => ({ schedules: await listSchedules(ctx.agents, ownerOf(identity)) }),
});

export const getScheduleRoute = defineRoute({
  method: 'GET',
  url: '/v1/schedules/:name',
  operationId: 'getSchedule',
  summary: "One schedule of the caller's tenant",
  params: ScheduleNameParams,
  response: { status: 200, description: 'The schedule', schema: ScheduleRecord },
  errors: [400, 401, 404, 503],
  handle: ({ ctx, identity, params }) => describeSchedule(ctx.agents, params.name, ownerOf(identity)).catch(asApiError),
});

const pauseRoute = (resume: boolean) =>
  defineRoute({
    method: 'POST',
    url: `/v1/schedules/:name/${resume ? 'unpause' : 'pause'}`,
    operationId: resume ? 'unpauseSchedule' : 'pauseSchedule',
    summary: resume
      ? 'Resume a paused schedule: it starts runs on its spec again (1 action)'
      : 'Pause a schedule: it starts no run until resumed; running runs go on (1 action)',
    params: ScheduleNameParams,
    body: PauseScheduleBody,
    optionalBody: true,
    response: { status: 200, description: 'The schedule now', schema: ScheduleRecord },
    errors: [400, 401, 403, 404, 503],
    async handle({ ctx, identity, params, body }) {
      requireScheduleAdmin(identity);
      return pauseSchedule(ctx.agents, params.name, ownerOf(identity), {
        resume,
        ...(body.note !== undefined ? { note: body.note } : {}),
      }).catch(asApiError);
    },
  });

export const deleteScheduleRoute = defineRoute({
  method: 'DELETE',
  url: '/v1/schedules/:name',
  operationId: 'deleteSchedule',
  summary: 'Delete a schedule (1 action); the runs it started go on',
  params: ScheduleNameParams,
  response: { status: 200, description: 'The schedule is gone', schema: DeletedScheduleResponse },
  errors: [400, 401, 403, 404, 503],
  async handle({ ctx, identity, params }) {
    requireScheduleAdmin(identity);
    await deleteSchedule(ctx.agents, params.name, ownerOf(identity)).catch(asApiError);
    return { deleted: params.name };
  },
});

export const SCHEDULES_ROUTES: readonly ApiRoute[] = [
  listSchedulesRoute,
  createScheduleRoute,
  getScheduleRoute,
  pauseRoute(false),
  pauseRoute(true),
  deleteScheduleRoute,
];
