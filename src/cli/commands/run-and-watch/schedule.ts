import { z, ZodError } from 'zod';
import {
  createSchedule,
  deleteSchedule,
  listSchedules,
  pauseSchedule,
  triggerSchedule,
  type ScheduleOwner,
} from '../../../client/schedules/agent-schedules';
import {
  ScheduleExistsError,
  ScheduleNotFoundError,
  ScheduleRefusedError,
} from '../../../client/errors/schedule-errors';
import { AgentInputConflictError } from '../../../client/errors/agent-input-conflict-error';
import { OVERLAP_POLICIES, ScheduleInit, type ScheduleRecord } from '../../../client/schedules/schedule-spec';
import type { CommandLine, CommandSpec } from '../../spec/command-line';
import { flag, PERSON_OPTIONS, text } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';
import { connect } from '../../setup/runtime';
import { runSignedDecisions } from '../../setup/decision-keyring';
import { writeForStdout, writeSafe } from '../../render/terminal-safe';
import { actingPerson } from '../people-in-the-loop/decide-call';

/*
 * `schedule create|list|pause|trigger|delete`: Temporal Schedules that start an agent (docs/schedules-and-triggers.md).
 * The CLI talks to Temporal directly, an operator's tool like `memory`: the schedule's runs are
 * attributed to --as (THOUGHTLINE_USER, else the OS user) and --tenant.
 */

const ACTIONS = ['create', 'list', 'pause', 'trigger', 'delete'] as const;
const Action = z.enum(ACTIONS);

/** `provider/model`, as a schedule's runs name their model. */
function modelOf(raw: string | undefined): ScheduleInit['model'] {
  if (raw === undefined) return undefined;
  const slash = raw.indexOf('/');
  if (slash <= 0 || slash === raw.length - 1)
    throw new UsageError(`--model takes PROVIDER/MODEL (anthropic/claude-sonnet-4-6), not "${raw}".`);
  return { provider: raw.slice(0, slash), model: raw.slice(slash + 1) } as ScheduleInit['model'];
}

function createInit(line: CommandLine, name: string): ScheduleInit {
  const agent = line.text('agent');
  const input = line.text('input');
  if (agent === undefined) throw new UsageError('schedule create needs --agent NAME: the agent each run starts.');
  if (input === undefined) throw new UsageError('schedule create needs --input TEXT: the task each run is given.');
  const model = modelOf(line.text('model'));
  return {
    name,
    agent,
    input,
    ...(model ? { model } : {}),
    ...(line.text('cron') !== undefined ? { cron: line.text('cron')! } : {}),
    ...(line.text('every') !== undefined ? { every: line.text('every')! } : {}),
    ...(line.text('overlap') !== undefined ? { overlap: line.text('overlap') as ScheduleInit['overlap'] } : {}),
    ...(line.text('catchup') !== undefined ? { catchup: line.text('catchup')! } : {}),
    ...(line.text('note') !== undefined ? { note: line.text('note')! } : {}),
    paused: line.flag('paused'),
  };
}

/** One schedule in two lines: name, spec and state; then its agent and next run. */
function scheduleLines(s: ScheduleRecord): string {
  const when = s.cron !== undefined ? `cron "${s.cron}"` : `every ${s.every}`;
  const state = s.paused ? `paused${s.note ? ` (${s.note})` : ''}` : `next ${s.nextRuns[0] ?? 'not planned'}`;
  const last = s.recentRuns[0] ? ` · last run ${s.recentRuns[0].runId}` : '';
  return `${s.name}  ${when}  overlap ${s.overlap}  ${state}\n  agent ${s.agent} · owner ${s.owner}${last}\n`;
}

/** The client's typed errors as usage errors (exit code 2): the caller's to fix. */
function asUsage(err: unknown): never {
  if (err instanceof ZodError) {
    const issue = err.issues[0]!;
    // The name is the NAME argument, every other setting a flag of its own name.
    const key = issue.path[0];
    const field = key === undefined ? '' : key === 'name' ? 'NAME: ' : `--${String(key)}: `;
    throw new UsageError(`${field}${issue.message}`);
  }
  if (err instanceof ScheduleRefusedError && err.setting !== undefined)
    throw new UsageError(`--${err.setting}: ${err.message}`);
  if (
    err instanceof ScheduleNotFoundError ||
    err instanceof ScheduleExistsError ||
    err instanceof ScheduleRefusedError ||
    err instanceof AgentInputConflictError
  )
    throw new UsageError(err.message);
  throw err;
}

export async function runScheduleCommand(line: CommandLine): Promise<number> {
  const parsedAction = Action.safeParse(line.args[0]);
  if (!parsedAction.success)
    throw new UsageError(`schedule takes ${ACTIONS.join(', ')}, not "${line.args[0]}": thoughtline schedule list`);
  const action = parsedAction.data;
  const name = line.args[1];
  if (action !== 'list' && name === undefined) throw new UsageError(`schedule ${action} needs the schedule's NAME.`);
  if (action === 'list' && name !== undefined) throw new UsageError('schedule list takes no NAME.');
  if (line.flag('resume') && action !== 'pause') throw new UsageError('--resume goes with schedule pause.');
  // Settings are checked before connecting: a bad flag is told at once, with nothing started.
  let init: ScheduleInit | undefined;
  if (action === 'create') {
    init = createInit(line, name!);
    const checked = ScheduleInit.safeParse(init);
    if (!checked.success) asUsage(checked.error);
  }
  const { agents, config } = await connect();
  const tenant = line.text('tenant');
  const owner: ScheduleOwner = {
    id: actingPerson(config, { ...(line.text('as') !== undefined ? { as: line.text('as')! } : {}) }).id,
    ...(tenant !== undefined ? { tenant } : {}),
  };
  try {
    switch (action) {
      case 'create': {
        // Its runs hold the readable keyring's keys, as `thoughtline run`'s do (unsigned decisions still reach them).
        const record = await createSchedule(agents, init!, owner, runSignedDecisions()).catch(asUsage);
        writeSafe(process.stdout, `Created schedule ${record.name}.\n${scheduleLines(record)}`);
        // The CLI speaks to Temporal alone: it cannot know which agents the workers register.
        writeSafe(
          process.stderr,
          `Not checked: that a worker registers agent "${record.agent}" (runs of an unregistered agent fail at their start; serve --agents checks it).\n`,
        );
        return 0;
      }
      case 'list': {
        const records = await listSchedules(agents, owner);
        if (line.flag('json')) writeForStdout(`${JSON.stringify(records, null, 2)}\n`);
        else if (records.length === 0)
          writeSafe(process.stdout, 'No schedules yet: thoughtline schedule create --help\n');
        else writeSafe(process.stdout, records.map(scheduleLines).join(''));
        return 0;
      }
      case 'pause': {
        const resume = line.flag('resume');
        const note = line.text('note');
        const record = await pauseSchedule(agents, name!, owner, { resume, ...(note ? { note } : {}) }).catch(asUsage);
        writeSafe(
          process.stdout,
          `${resume ? 'Resumed' : 'Paused'} schedule ${record.name}.\n${scheduleLines(record)}`,
        );
        return 0;
      }
      case 'trigger':
        await triggerSchedule(agents, name!, owner).catch(asUsage);
        writeSafe(
          process.stdout,
          `Triggered schedule ${name}: one run starts now, whatever its spec and pause say; thoughtline schedule list shows it.\n`,
        );
        return 0;
      case 'delete':
        await deleteSchedule(agents, name!, owner).catch(asUsage);
        writeSafe(process.stdout, `Deleted schedule ${name}; the runs it started go on.\n`);
        return 0;
    }
  } finally {
    await agents.client.connection.close();
  }
}

export const SCHEDULE_COMMAND: CommandSpec = {
  name: 'schedule',
  group: 'Run and watch',
  summary: 'start an agent on a cron spec or an interval: create, list, pause, trigger, delete',
  description:
    'Temporal Schedules that start an agent with an input on a cron spec (UTC) or an interval of at least 1m; each run is marked "scheduled by NAME". Each run a schedule starts, on its spec or by trigger, costs 3 Temporal actions (2 for the schedule, 1 for the start); creating, pausing, resuming and deleting 1 each.',
  usage: [
    'schedule create NAME --agent A --input TEXT (--cron "0 9 * * 1-5" | --every 1h) [--overlap skip] [--catchup 1m] [--paused] [--note TEXT]',
    'schedule list [--json]',
    'schedule pause NAME [--resume] [--note TEXT]',
    'schedule trigger NAME',
    'schedule delete NAME',
  ],
  examples: [
    'thoughtline schedule create daily-report --agent reporter --input "Write the daily report" --cron "0 9 * * 1-5"',
    'thoughtline schedule create sweep --agent janitor --input "Close stale tickets" --every 6h --overlap buffer_one',
    'thoughtline schedule pause daily-report --note "holiday week"',
    'thoughtline schedule pause daily-report --resume',
    'thoughtline schedule trigger daily-report',
    'thoughtline schedule delete sweep',
  ],
  args: [
    {
      name: '<create|list|pause|trigger|delete>',
      needs: 'create, list, pause, trigger or delete: thoughtline schedule list',
    },
    { name: '[name]' },
  ],
  options: {
    agent: text('NAME', 'create: the registered agent each run starts'),
    input: text('TEXT', 'create: the task each run is given (at most 16 KiB)'),
    model: text('PROVIDER/MODEL', 'create: the model each run calls', { default: "the run's default" }),
    cron: text('SPEC', 'create: five cron fields in UTC, or @hourly, @daily…'),
    every: text('DURATION', 'create: an interval of at least 1m: 15m, 1h, 7d'),
    overlap: text('POLICY', `create: when a run is due while one runs: ${OVERLAP_POLICIES.join(', ')}`, {
      default: 'skip',
    }),
    catchup: text('DURATION', 'create: how late a missed run may still start after an outage (at least 10s)', {
      default: '1m',
    }),
    paused: flag('create: create it paused'),
    resume: flag('pause: resume it instead'),
    note: text('TEXT', 'create, pause: a note shown with the schedule'),
    tenant: text('NAME', 'the tenant whose schedules, and whose runs they start', { default: 'none' }),
    as: PERSON_OPTIONS.as,
    json: flag('list: as JSON'),
  },
  run: runScheduleCommand,
};
