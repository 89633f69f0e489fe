import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError as TemporalScheduleNotFound,
  type ScheduleOverlapPolicy,
  type ScheduleSummary,
} from '@temporalio/client';
import { z } from 'zod';
import type { SignedDecisionPolicy } from '../../domain/approval/signed-decision';
import type { AgentClient } from '../agent-client';
import { agentStartOptions } from '../start/agent-start-options';
import { ScheduleExistsError, ScheduleNotFoundError, ScheduleRefusedError } from '../errors/schedule-errors';
import { grpcCause, GrpcCode } from '../errors/grpc-cause';
import {
  durationMs,
  MAX_SCHEDULE_NOTE_CHARS,
  ScheduleInit,
  ScheduleRecord,
  type ScheduleSettings,
} from './schedule-spec';

/**
 * Who a schedule belongs to: its runs start with this caller (id and tenant), never with the
 * creator's roles, which are read again at each request and never frozen into a schedule.
 */
export interface ScheduleOwner {
  id: string;
  tenant?: string;
}

/** The memo key a schedule keeps its settings and owner under (Temporal's summaries do not hold its policies). */
const MEMO_KEY = 'thoughtlineSchedule';
/** The most schedules a listing reads: a namespace holds other schedules too. */
export const MAX_LISTED_SCHEDULES = 500;

const StoredSchedule = ScheduleRecord.pick({
  name: true,
  agent: true,
  input: true,
  model: true,
  cron: true,
  every: true,
  overlap: true,
  catchup: true,
  owner: true,
}).extend({ tenant: z.string().optional() });
type StoredSchedule = z.infer<typeof StoredSchedule>;

/**
 * The Temporal Schedule id of a tenant's schedule: names are the tenant's own, so two tenants may
 * each have a `nightly`. A name has no ".", so the id is never ambiguous.
 */
export const scheduleIdOf = (name: string, tenant: string | undefined): string =>
  tenant === undefined ? `tl.${name}` : `tl.${tenant}.${name}`;

const OVERLAP: Record<StoredSchedule['overlap'], ScheduleOverlapPolicy> = {
  skip: 'SKIP',
  buffer_one: 'BUFFER_ONE',
  buffer_all: 'BUFFER_ALL',
  cancel_other: 'CANCEL_OTHER',
  terminate_other: 'TERMINATE_OTHER',
  allow_all: 'ALLOW_ALL',
};

/**
 * What the schedule's runs are started with besides its settings: the signing keys their
 * decisions are verified with (`signedDecisionKeys` for serve, required with --require-signatures;
 * the readable keyring's, not required, for the CLI). Stored in the Schedule's action with the rest
 * of the input, so every run it starts holds the keys its creator's door gives a direct run.
 */
export interface ScheduleRunInput {
  signedDecisions?: SignedDecisionPolicy;
}

/**
 * Creates a Temporal Schedule that starts `agentWorkflow` with the same input, search attributes
 * and memo as `AgentClient.start` would, plus its origin. Costs 1 action to create; each run it
 * starts costs 3 (2 for the Schedule, 1 for the start). Throws ZodError for bad settings,
 * ScheduleExistsError for a taken name, ScheduleRefusedError when Temporal refuses the spec.
 */
export async function createSchedule(
  agents: AgentClient,
  init: ScheduleInit,
  owner: ScheduleOwner,
  runInput: ScheduleRunInput = {},
): Promise<ScheduleRecord> {
  const settings: ScheduleSettings = ScheduleInit.parse(init);
  const input = agents.prepare({
    task: settings.input,
    agent: settings.agent,
    ...(settings.model ? { model: settings.model } : {}),
    caller: { id: owner.id, roles: [], ...(owner.tenant !== undefined ? { tenant: owner.tenant } : {}) },
    ...(runInput.signedDecisions ? { signedDecisions: runInput.signedDecisions } : {}),
  });
  const scheduleId = scheduleIdOf(settings.name, owner.tenant);
  const stored: StoredSchedule = {
    name: settings.name,
    agent: settings.agent,
    input: settings.input,
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.cron !== undefined ? { cron: settings.cron } : {}),
    ...(settings.every !== undefined ? { every: settings.every } : {}),
    overlap: settings.overlap,
    catchup: settings.catchup,
    owner: owner.id,
    ...(owner.tenant !== undefined ? { tenant: owner.tenant } : {}),
  };
  try {
    await agents.client.schedule.create({
      scheduleId,
      spec:
        settings.cron !== undefined
          ? { cronExpressions: [settings.cron] }
          : { intervals: [{ every: durationMs(settings.every!)! }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'agentWorkflow',
        taskQueue: agents.taskQueue,
        // Temporal appends the scheduled time to this id for each run.
        workflowId: `scheduled-${scheduleId}`,
        ...agentStartOptions(input, { kind: 'schedule', schedule: settings.name }),
      },
      policies: { overlap: OVERLAP[settings.overlap], catchupWindow: durationMs(settings.catchup)! },
      state: { paused: settings.paused, ...(settings.note !== undefined ? { note: settings.note } : {}) },
      memo: { [MEMO_KEY]: stored },
    });
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) throw new ScheduleExistsError(settings.name);
    // The SDK turns the server's "Invalid schedule spec" into a TypeError carrying the server's words.
    if (err instanceof TypeError) {
      const setting = settings.cron !== undefined ? 'cron' : 'every';
      const value = settings.cron ?? settings.every!;
      throw new ScheduleRefusedError(`Temporal cannot read ${setting} "${value}": ${err.message}`, setting);
    }
    const cause = grpcCause(err);
    if (cause?.code === GrpcCode.INVALID_ARGUMENT)
      throw new ScheduleRefusedError(`Temporal refused the schedule: ${cause.details}`);
    throw err;
  }
  return describeSchedule(agents, settings.name, owner);
}

/** The caller's schedule as a record; ScheduleNotFoundError when it is not theirs or not there. */
export async function describeSchedule(
  agents: AgentClient,
  name: string,
  owner: Pick<ScheduleOwner, 'tenant'>,
): Promise<ScheduleRecord> {
  const handle = agents.client.schedule.getHandle(scheduleIdOf(name, owner.tenant));
  const description = await handle.describe().catch(notFoundAs(name));
  const record = recordOf(description);
  if (!record || (record.tenant ?? null) !== (owner.tenant ?? null)) throw new ScheduleNotFoundError(name);
  return record.record;
}

/** The caller's tenant's schedules, by name; at most MAX_LISTED_SCHEDULES are read. */
export async function listSchedules(
  agents: AgentClient,
  owner: Pick<ScheduleOwner, 'tenant'>,
): Promise<ScheduleRecord[]> {
  const records: ScheduleRecord[] = [];
  let read = 0;
  for await (const summary of agents.client.schedule.list({ pageSize: 100 })) {
    if (++read > MAX_LISTED_SCHEDULES) break;
    const found = recordOf(summary);
    if (found && (found.tenant ?? null) === (owner.tenant ?? null)) records.push(found.record);
  }
  return records.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Pauses (or, with `resume`, unpauses) the caller's schedule: 1 action. */
export async function pauseSchedule(
  agents: AgentClient,
  name: string,
  owner: Pick<ScheduleOwner, 'tenant' | 'id'>,
  options: { resume?: boolean; note?: string } = {},
): Promise<ScheduleRecord> {
  const note = options.note ?? `${options.resume ? 'resumed' : 'paused'} by ${owner.id}`;
  if (note.length > MAX_SCHEDULE_NOTE_CHARS)
    throw new ScheduleRefusedError(`A note is at most ${MAX_SCHEDULE_NOTE_CHARS} characters.`);
  await describeSchedule(agents, name, owner);
  const handle = agents.client.schedule.getHandle(scheduleIdOf(name, owner.tenant));
  await (options.resume ? handle.unpause(note) : handle.pause(note)).catch(notFoundAs(name));
  return describeSchedule(agents, name, owner);
}

/** Starts one run of the caller's schedule now, whatever its spec and pause say (3 actions). */
export async function triggerSchedule(
  agents: AgentClient,
  name: string,
  owner: Pick<ScheduleOwner, 'tenant'>,
): Promise<void> {
  await describeSchedule(agents, name, owner);
  await agents.client.schedule.getHandle(scheduleIdOf(name, owner.tenant)).trigger('ALLOW_ALL').catch(notFoundAs(name));
}

/** Deletes the caller's schedule (1 action); the runs it started go on. */
export async function deleteSchedule(
  agents: AgentClient,
  name: string,
  owner: Pick<ScheduleOwner, 'tenant'>,
): Promise<void> {
  await describeSchedule(agents, name, owner);
  await agents.client.schedule.getHandle(scheduleIdOf(name, owner.tenant)).delete().catch(notFoundAs(name));
}

const notFoundAs =
  (name: string) =>
  (err: unknown): never => {
    if (err instanceof TemporalScheduleNotFound) throw new ScheduleNotFoundError(name);
    throw err;
  };

/** A Temporal schedule Thoughtline made, as a record, with its tenant; undefined for any other schedule. */
function recordOf(
  summary: Pick<ScheduleSummary, 'memo' | 'state' | 'info'> & {
    info: { recentActions: ScheduleSummary['info']['recentActions']; nextActionTimes: Date[] };
  },
): { record: ScheduleRecord; tenant?: string } | undefined {
  const parsed = StoredSchedule.safeParse(summary.memo?.[MEMO_KEY]);
  if (!parsed.success) return undefined;
  const { tenant, ...stored } = parsed.data;
  const recent = [...summary.info.recentActions]
    .reverse()
    .slice(0, 5)
    .map((action) => ({ runId: action.action.workflow.workflowId, startedAt: action.takenAt.toISOString() }));
  return {
    record: {
      ...stored,
      paused: summary.state.paused,
      ...(summary.state.note ? { note: summary.state.note } : {}),
      nextRuns: summary.state.paused ? [] : summary.info.nextActionTimes.slice(0, 3).map((at) => at.toISOString()),
      recentRuns: recent,
    },
    ...(tenant !== undefined ? { tenant } : {}),
  };
}
