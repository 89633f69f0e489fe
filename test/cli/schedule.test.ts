import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, useTool } from '../../src/activities/models/scripted-model';
import { defineAgent } from '../../src/agents/define-agent';
import { originOfMemo } from '../../src/domain/run/run-origin';
import type { ScheduleRecord } from '../../src/client/schedules/schedule-spec';
import { cliEnv, runCli } from '../helpers/cli-process';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { eventually } from '../server/server-harness';

const env = useTestEnv();
// The one run `schedule trigger` starts finishes at once.
const model = createScriptedModel([{ content: [useTool('finish', { result: 'swept' })] }]);
const janitor = defineAgent({ id: 'janitor', description: 'Sweeps.', version: '1.0.0', systemPrompt: 'Sweep.' });
let h: AgentHarness;
let running: Promise<void>;
const name = `sweep-${randomUUID().slice(0, 8)}`;
const cli = (args: string[]) =>
  runCli(['schedule', ...args], cliEnv({ THOUGHTLINE_TASK_QUEUE: h.taskQueue, THOUGHTLINE_USER: 'alice' }));

beforeAll(async () => {
  h = await createHarness(env, { tools: [], models: { scripted: model }, agents: [janitor] });
  running = h.worker.run();
});
afterAll(async () => {
  await cli(['delete', name]).catch(() => undefined);
  h?.worker.shutdown();
  await running;
});

describe('thoughtline schedule', () => {
  it('creates a schedule, triggers a run now that starts with its origin; lists, pauses, resumes and deletes it', async () => {
    const created = await cli([
      'create',
      name,
      '--agent',
      'janitor',
      '--input',
      'Close stale tickets',
      '--model',
      'scripted/scripted-model',
      '--every',
      '1h',
      '--overlap',
      'skip',
      '--catchup',
      '1m',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`Created schedule ${name}.\n${name}  every 1h  overlap skip  next `);

    // An hour away: the run below is the trigger's, not the spec's.
    const triggered = await cli(['trigger', name]);
    expect(triggered.code, triggered.stderr).toBe(0);
    expect(triggered.stdout).toContain(`Triggered schedule ${name}: one run starts now`);
    expect(created.stdout).toContain('agent janitor · owner alice');

    const runId = await eventually(
      'the run the trigger started',
      async () => {
        const listed = await cli(['list', '--json']);
        const mine = (JSON.parse(listed.stdout) as ScheduleRecord[]).find((s) => s.name === name);
        return mine?.recentRuns[0]?.runId;
      },
      30_000,
    );
    const paused = await cli(['pause', name, '--note', 'enough']);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toContain(`Paused schedule ${name}.\n${name}  every 1h  overlap skip  paused (enough)`);

    const description = await h.agents.getHandle(runId).describe();
    expect(originOfMemo(description.memo)).toEqual({ kind: 'schedule', schedule: name });
    expect(description.searchAttributes.TemporalScheduledById).toEqual([`tl.${name}`]);
    expect(description.searchAttributes.ThoughtlineCaller).toEqual(['alice']);
    expect(description.searchAttributes.ThoughtlineAgent).toEqual(['janitor']);
    const result = await h.agents.result(runId);
    expect(result.finalAnswer).toBe('swept');

    const resumed = await cli(['pause', name, '--resume']);
    expect(resumed.stdout).toContain(`Resumed schedule ${name}.`);
    const deleted = await cli(['delete', name]);
    expect(deleted.stdout).toBe(`Deleted schedule ${name}; the runs it started go on.\n`);
    const gone = await cli(['delete', name]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(`No schedule named "${name}" is visible to you`);
    const untriggered = await cli(['trigger', name]);
    expect(untriggered.code).toBe(2);
    expect(untriggered.stderr).toContain(`No schedule named "${name}" is visible to you`);
  });

  it('a bad or missing option is a usage error (exit 2) that says what it takes', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['frobnicate'], /schedule takes create, list, pause, trigger, delete, not "frobnicate"/],
      [['create', 'x', '--input', 'i', '--every', '1h'], /needs --agent NAME/],
      [['create', 'x', '--agent', 'a', '--input', 'i'], /give exactly one of cron and every/],
      [
        ['create', 'x', '--agent', 'a', '--input', 'i', '--every', 'hourly'],
        /--every: every is a whole number and a unit/,
      ],
      [['create', 'x', '--agent', 'a', '--input', 'i', '--every', '1h', '--overlap', 'maybe'], /--overlap/],
      // The name is an argument: no --name flag is named.
      [['create', 'Bad Name', '--agent', 'a', '--input', 'i', '--every', '1h'], /: NAME: a schedule name is/],
      // Each run costs 3 Temporal actions: nothing shorter than a minute.
      [
        ['create', 'x', '--agent', 'a', '--input', 'i', '--every', '5s'],
        /--every: every is between 1m and 366d: each run costs 3 Temporal actions/,
      ],
      // Five fields of allowed characters, refused by Temporal's own parser.
      [
        ['create', 'x', '--agent', 'a', '--input', 'i', '--cron', '99 * * * *'],
        /--cron: Temporal cannot read cron "99 \* \* \* \*": Minute is not in range \[0-59\]/,
      ],
      [['trigger'], /schedule trigger needs the schedule's NAME/],
      [['pause'], /schedule pause needs the schedule's NAME/],
      [['delete', 'x', '--resume'], /--resume goes with schedule pause/],
    ];
    for (const [args, message] of cases) {
      const answer = await cli(args);
      expect(answer.code, `${args.join(' ')}: ${answer.stderr}`).toBe(2);
      expect(answer.stderr).toMatch(message);
      expect(answer.stderr).not.toContain('--name');
    }
  });

  it('has help from its own spec', async () => {
    const help = await runCli(['schedule', '--help'], cliEnv({}));
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('schedule create NAME --agent A --input TEXT');
    expect(help.stdout).toContain('3 Temporal actions');
  });
});
