import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createScriptedModel, say } from '../../src/activities/models/scripted-model';
import { isGlobalInstall } from '../../src/client/follow/cli-name';
import type { RunRow } from '../../src/cli/reading/list-runs';
import { cliEnv, runCli, spawnCli } from '../helpers/cli-process';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';

const env = useTestEnv();

/** What `run` sends without a registry: the default model, served here by the scripted provider. */
const MODEL = { provider: 'anthropic', model: 'claude-sonnet-4-6' } as const;

/** Polls until `check` holds (visibility and queries catch up a moment after the run moves). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** One worker for the file: every CLI process talks to its queue. */
async function withWorker(body: (h: AgentHarness, cli: NodeJS.ProcessEnv) => Promise<void>): Promise<void> {
  const model = createScriptedModel([{ content: [say('Final answer: sunny.')] }]);
  const h = await createHarness(env, { tools: [], models: { anthropic: model } });
  await h.worker.runUntil(body(h, cliEnv({ THOUGHTLINE_TASK_QUEUE: h.taskQueue })));
}

describe('thoughtline runs, run --budget-*, and unknown run ids, through the CLI', () => {
  it('lists runs newest first with their ending and spend, filtered by state, agent and tenant', async () => {
    await withWorker(async (h, cli) => {
      const agentName = `lister-${randomUUID().slice(0, 8)}`;
      const tenant = `acme-${randomUUID().slice(0, 8)}`;
      const done = await h.agents.start({ task: 'Weather?', model: MODEL, agentName, caller: { id: 'ann', tenant } });
      await done.result();
      const cut = await h.agents.start({ task: 'Never mind', model: MODEL, agentName, caller: { id: 'bob' } });
      await cut.terminate('test');
      const listed = async (args: string[]): Promise<RunRow[]> => {
        const { code, stdout, stderr } = await runCli(['runs', ...args, '--json'], cli);
        expect(code, stderr).toBe(0);
        return JSON.parse(stdout) as RunRow[];
      };
      // Waited for in process: a CLI process per poll would cost a second or two each.
      await until(async () => {
        let closed = 0;
        for await (const run of env.client.workflow.list({ query: `ThoughtlineAgent = '${agentName}'` }))
          if (run.status.name !== 'RUNNING') closed++;
        return closed === 2;
      }, 'both runs ended in visibility');
      const rows = await listed(['--agent', agentName]);
      expect(rows.map((r) => r.runId)).toEqual([cut.workflowId, done.workflowId]);
      expect(rows[1]).toMatchObject({
        agentName,
        state: 'completed',
        ending: { state: 'completed', terminationReason: 'success' },
        tenant,
        task: 'Weather?',
      });
      expect(rows[1]!.tokens).toBeGreaterThan(0);
      expect(rows[1]!.costUsd).toBeGreaterThanOrEqual(0);
      // How it went: one iteration, how long from start to close, and the model that answered (the scripted one names the model asked).
      expect(rows[1]).toMatchObject({ iterations: 1, model: MODEL.model });
      expect(rows[1]!.durationMs).toBeGreaterThanOrEqual(0);
      expect(rows[0]).toMatchObject({ state: 'terminated', ending: { state: 'terminated' } });
      // Terminated before its ending upsert: the attribute still names the model asked for, so no model is claimed.
      expect(rows[0]!.model).toBeUndefined();
      expect(rows[0]!.durationMs).toBeGreaterThanOrEqual(0);
      expect((await listed(['--agent', agentName, '--state', 'completed'])).map((r) => r.runId)).toEqual([
        done.workflowId,
      ]);
      expect((await listed(['--tenant', tenant])).map((r) => r.runId)).toEqual([done.workflowId]);
      expect(await listed(['--agent', agentName, '--limit', '1'])).toHaveLength(1);

      const table = await runCli(['runs', '--agent', agentName], cli);
      expect(table.code).toBe(0);
      const [head, first, second] = table.stdout.split('\n');
      expect(head).toMatch(/^RUN +AGENT +STATE +ENDING +TOOK +ITER +TOKENS +COST +MODEL +STARTED \(UTC\)$/);
      expect(first).toMatch(
        new RegExp(`^${cut.workflowId} +${agentName} +terminated +terminated +[\\d.]+ m?s +- +- +- +- +20`),
      );
      expect(second).toMatch(
        new RegExp(
          `^${done.workflowId} +${agentName} +completed +success +[\\d.]+ m?s +1 +[\\d,]+ +\\$0\\.\\d{4} +${MODEL.model} +20`,
        ),
      );
      // The end user's view leaves spend out, as status does.
      expect((await runCli(['runs', '--agent', agentName, '--role', 'end_user'], cli)).stdout).not.toMatch(/COST|\$/);
      expect((await runCli(['runs', '--agent', agentName, '--state', 'failed'], cli)).stdout).toBe('No runs match.\n');
    });
  }, 90_000);

  it('runs refuses a bad filter naming it, and list is pointed at runs; exit 2', async () => {
    const cli = cliEnv({});
    const bad = await runCli(['runs', '--state', 'done'], cli);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('thoughtline: --state takes one of running, completed, failed, cancelled,');
    const list = await runCli(['list'], cli);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('thoughtline: unknown command "list"; did you mean "runs"?');
  });

  it('run --budget-tokens/--budget-usd --on-budget ask start a run that pauses at its budget; status says so in words', async () => {
    await withWorker(async (h, cli) => {
      const id = `agent-budget-${randomUUID()}`;
      const run = spawnCli(
        ['run', 'Weather in Paris?', '--no-worker', '--no-dashboard', '--workflow-id', id].concat([
          '--budget-tokens',
          '1',
          '--budget-usd',
          '0.5',
          '--on-budget',
          'ask',
        ]),
        cli,
      );
      try {
        await until(async () => {
          const status = await h.agents.status(id).catch(() => undefined);
          return status?.budgetPause !== undefined;
        }, 'the run to pause at its budget');
        const { code, stdout, stderr } = await runCli(['status', id], cli);
        expect(code, stderr).toBe(0);
        expect(stdout).toMatch(/^Tokens: +0 of 1 /m);
        expect(stdout).toMatch(/^Cost: +\$0\.0000 of \$0\.5000$/m);
        expect(stdout).toMatch(/^Waiting for: a raise of its budget: Token budget/m);
        expect(stdout).not.toContain('raiseBudget');
      } finally {
        await h.agents.getHandle(id).terminate('test');
        await run.exited;
      }
    });
  }, 90_000);

  it('run refuses a bad budget value naming its flag; exit 2', async () => {
    const cli = cliEnv({});
    for (const [args, message] of [
      [['--budget-tokens', '0'], '--budget-tokens takes a positive whole number, not "0".'],
      [['--budget-usd', 'lots'], '--budget-usd takes a positive amount of US dollars, e.g. 2.50, not "lots".'],
      [['--on-budget', 'stop'], '--on-budget takes end (the run ends at its budget) or ask'],
    ] as const) {
      const { code, stderr } = await runCli(['run', 'Weather?', ...args], cli);
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`thoughtline: ${message}`);
    }
  });

  it('every command taking a run id says an unknown one is no run, naming it and where ids are listed; exit 1', async () => {
    const id = `agent-missing-${randomUUID()}`;
    const cli = cliEnv({});
    const failures: string[] = [];
    for (const args of [
      ['status', id],
      ['chain', id],
      ['tree', id],
      ['watch', id],
      ['cancel', id],
      ['steer', id, 'Use 2024 data'],
      ['answer', id, '2024'],
      ['approve', id, '--yes'],
      ['reject', id, '--reason', 'no', '--yes'],
      ['raise-budget', id, '--tokens', '5'],
      ['fork', id, '--at-step', '1', '--dry-run'],
      ['export', id, '--out', '/tmp/clia-missing-run.md'],
      ['diff', id, id],
    ]) {
      const { code, stderr } = await runCli(args, cli);
      const said = stderr.split('\n').filter((l) => !l.startsWith('thoughtline: using the Temporal server'));
      if (
        code !== 1 ||
        said.join('\n') !== `thoughtline: no run "${id}" (check the id with \`npx thoughtline runs\`)\n`
      )
        failures.push(`${args[0]}: exit ${code}: ${stderr}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('hints say npx thoughtline, except from a global install', () => {
    expect(isGlobalInstall('/usr/local/lib/node_modules/thoughtline')).toBe(true);
    expect(isGlobalInstall('C:/Users/ann/AppData/Roaming/npm/node_modules/thoughtline')).toBe(true);
    expect(isGlobalInstall('/home/ann/project/node_modules/thoughtline')).toBe(false);
    expect(isGlobalInstall('/home/ann/thoughtline')).toBe(false);
  });
});
