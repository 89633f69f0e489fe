import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { workflowPollers } from '../../src/client/follow/worker-presence';
import { AgentInput, AgentResult } from '../../src/domain';
import { cliEnv, runCli, spawnCli, type CliProcess } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

/**
 * How long a command may take to say nobody serves a run: under the server's own query timeout
 * (~30 s), so a command left waiting on it still fails. The messages tell the CLI's paths apart;
 * the bound leaves room for a CLI process starting on a loaded two-core machine (over 10 s at
 * load 17, on CI's clean clone).
 */
const FAST_MS = 25_000;

/** A Messages API that takes requests and never answers: a model call that is still under way. */
function startSilentModel(): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer(() => requests++);
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests: () => requests,
        close: () => new Promise<void>((done) => (sockets.forEach((s) => s.destroy()), server.close(() => done()))),
      }),
    ),
  );
}

const timed = async <T>(work: Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
};

const started: AgentClient[] = [];
const runIds: Array<{ agents: AgentClient; workflowId: string }> = [];

/** Starts a run on a queue no worker polls: it stays running, with nothing to advance it. */
async function unservedRun(taskQueue: string): Promise<string> {
  const agents = new AgentClient({ client: env.client, taskQueue });
  started.push(agents);
  const handle = await agents.start({
    task: 'Nobody will do this',
    model: { provider: 'anthropic', model: 'claude-sonnet-4-6' },
  });
  runIds.push({ agents, workflowId: handle.workflowId });
  return handle.workflowId;
}

let silentModel: Awaited<ReturnType<typeof startSilentModel>>;
const processes: CliProcess[] = [];
beforeAll(async () => {
  silentModel = await startSilentModel();
});
afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await Promise.all(
    runIds.map(({ agents, workflowId }) =>
      agents
        .getHandle(workflowId)
        .terminate('test over')
        .catch(() => undefined),
    ),
  );
  await silentModel.close();
});

// The cases of both blocks run side by side (five at a time), each on task queues and runs of its
// own: the two that wait on purpose (a query's 10 s deadline, a task left waiting 10 s) overlap the rest.
describe.concurrent('thoughtline fails fast when no worker serves a run', () => {
  it('run --no-worker on a task queue nobody polls starts nothing and says how to start a worker', async () => {
    const queue = `nobody-${randomUUID()}`;
    const { value: run, ms } = await timed(
      runCli(
        ['run', 'Compare the weather in Paris and Tokyo', '--no-worker', '--workflow-id', `never-${queue}`],
        cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }),
      ),
    );
    expect(ms).toBeLessThan(FAST_MS);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`no worker polls task queue "${queue}"`);
    expect(run.stderr).toContain('thoughtline worker [--tools FILE]');
    expect(run.stderr).toContain('nothing was started');
    await expect(env.client.workflow.getHandle(`never-${queue}`).describe()).rejects.toThrow();
  });

  it('status, tree, chain and watch of a run nobody serves end within seconds with the same advice', async () => {
    const queue = `nobody-${randomUUID()}`;
    const workflowId = await unservedRun(queue);
    for (const verb of ['status', 'tree', 'chain', 'watch']) {
      const { value: out, ms } = await timed(runCli([verb, workflowId], cliEnv({ THOUGHTLINE_TASK_QUEUE: queue })));
      expect(ms, verb).toBeLessThan(FAST_MS);
      expect(out.code, verb).toBe(1);
      expect(out.stderr, verb).toContain(`no worker polls task queue "${queue}", which run ${workflowId} is on`);
      expect(out.stderr, verb).toContain('thoughtline worker [--tools FILE]');
      expect(out.stderr, verb).not.toContain('Failed to query');
    }
    // Another configured queue: the advice names the run's own.
    const other = await runCli(['status', workflowId], cliEnv({ THOUGHTLINE_TASK_QUEUE: `elsewhere-${randomUUID()}` }));
    expect(other.stderr).toContain(`THOUGHTLINE_TASK_QUEUE=${queue} npx thoughtline worker`);
  }, 150_000);

  it('a query that a polling worker never answers ends at the deadline with the same advice', async () => {
    const queue = `mute-${randomUUID()}`;
    // Its workflow task times out after a minute, not Temporal's default 10 s: otherwise the
    // server's own timeout of the task taken below races the CLI's 10 s query deadline on a busy
    // machine, and the query fails on the server ("Failed to query Workflow") before the deadline.
    const agents = new AgentClient({ client: env.client, taskQueue: queue });
    const workflowId = `agent-${randomUUID()}`;
    await env.client.workflow.start('agentWorkflow', {
      taskQueue: queue,
      workflowId,
      args: [
        AgentInput.parse({ task: 'Nobody will do this', model: { provider: 'anthropic', model: 'claude-sonnet-4-6' } }),
      ],
      workflowTaskTimeout: '1 minute',
    });
    runIds.push({ agents, workflowId });
    // A poller that takes the run's first workflow task and never completes it: the queue has a
    // poller, yet nothing answers the run's queries.
    const poll = (ms: number) =>
      env.client.connection.withDeadline(Date.now() + ms, () =>
        env.client.workflowService.pollWorkflowTaskQueue({
          namespace: env.client.options.namespace,
          taskQueue: { name: queue },
          identity: 'mute-worker',
        }),
      );
    const taken = await poll(30_000);
    expect(taken.workflowExecution?.workflowId).toBe(workflowId);
    // The server's in-memory list of a queue's pollers can miss this one poll: on CI's clean
    // clone at load the CLI once found none for 3 s and said no worker polls. A real worker
    // polls again and again; short empty polls do the same until the list names this one.
    for (let i = 0; i < 40 && !(await workflowPollers(env.client, queue)).includes('mute-worker'); i++)
      await poll(500).catch(() => undefined);
    expect(await workflowPollers(env.client, queue)).toContain('mute-worker');
    const { value: out, ms } = await timed(runCli(['status', workflowId], cliEnv({ THOUGHTLINE_TASK_QUEUE: queue })));
    expect(ms).toBeLessThan(FAST_MS + 10_000);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`no worker answered for run ${workflowId} within 10 s`);
    expect(out.stderr).toContain('thoughtline worker [--tools FILE]');
  });

  it('a completed run is read from its history after its worker has gone', async () => {
    const run = await runCli(
      ['run', 'Compare the weather in San Francisco and Paris', '--json'],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: `own-${randomUUID()}` }),
    );
    expect(run.code, run.stderr).toBe(0);
    const result = AgentResult.parse(JSON.parse(run.stdout));
    const { value: chain, ms } = await timed(runCli(['chain', result.chain.chainId], cliEnv({})));
    expect(ms).toBeLessThan(FAST_MS);
    expect(chain.code, chain.stderr).toBe(0);
    expect(chain.stdout).toContain('status: completed');
  });
});

describe.concurrent('thoughtline run', () => {
  it('Ctrl-C stops following and its worker at once, says where the run stands and how to resume, and exits 130', async () => {
    const modelCallsBefore = silentModel.requests();
    const cli = spawnCli(
      ['run', 'Compare the weather in Paris and Tokyo'],
      cliEnv({
        THOUGHTLINE_TASK_QUEUE: `own-${randomUUID()}`,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: silentModel.url,
      }),
    );
    processes.push(cli);
    await cli.waitFor(/Started (\S+)/);
    const workflowId = /Started (\S+)/.exec(cli.output())![1]!;
    // The worker is in the middle of a model call when the person presses Ctrl-C.
    while (silentModel.requests() === modelCallsBefore) await new Promise((r) => setTimeout(r, 50));
    const { value: code, ms } = await timed((cli.child.kill('SIGINT'), cli.exited));
    runIds.push({ agents: new AgentClient({ client: env.client }), workflowId });

    expect(ms).toBeLessThan(FAST_MS);
    expect(code).toBe(130);
    const out = cli.output();
    expect(out).toContain(
      `Stopped following ${workflowId} and stopped its worker. The run keeps its state in Temporal`,
    );
    expect(out).toMatch(/THOUGHTLINE_TASK_QUEUE=\S+-run-\w+ npx thoughtline worker \[--tools FILE\]/);
    expect(out).toContain(`thoughtline watch ${workflowId}`);
    const { status } = await env.client.workflow.getHandle(workflowId).describe();
    expect(status.name).toBe('RUNNING');
  });

  it('never competes with a standing worker: it runs on its own queue, with its own model, and --record writes what it says', async () => {
    const queue = `shared-${randomUUID()}`;
    // A standing worker on the same queue whose model never answers: any call it took would hang the run.
    // Its own silent model, so the Ctrl-C case's call, made meanwhile, is not counted here.
    const ownModel = await startSilentModel();
    const standing = spawnCli(
      ['worker'],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: queue, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: ownModel.url }),
    );
    processes.push(standing);
    await standing.waitFor(/worker polling task queue/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tl-record-')), 'replies.jsonl');

    const run = await runCli(
      ['run', 'Compare the weather in San Francisco and Paris', '--record', file],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }),
    );
    standing.child.kill('SIGTERM');
    await standing.exited;
    await ownModel.close();

    expect(run.code, run.stderr).toBe(0);
    expect(ownModel.requests()).toBe(0);
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind?: string });
    const tools = lines.filter((l) => l.kind === 'tool').length;
    // The weather comparison: two tool executions, the rest model replies.
    expect(tools).toBe(2);
    expect(run.stdout).toMatch(
      new RegExp(
        `Recorded ${lines.length - tools} model replies and ${tools} tool executions of \\S+ to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      ),
    );
    const workflowId = /Started (\S+)/.exec(run.stdout)![1]!;
    const { taskQueue } = await env.client.workflow.getHandle(workflowId).describe();
    expect(taskQueue).toMatch(new RegExp(`^${queue}-run-\\w{8}$`));
  });

  it('goes to a standing worker when one polls the task queue, and says so', async () => {
    const queue = `shared-${randomUUID()}`;
    const standing = spawnCli(['worker'], cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }));
    processes.push(standing);
    await standing.waitFor(/worker polling task queue/);
    const run = await runCli(
      ['run', 'Compare the weather in San Francisco and Paris', '--json'],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }),
    );
    standing.child.kill('SIGTERM');
    await standing.exited;

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `a worker already polls task queue "${queue}": the run goes to it, with its tools and model, and this process runs none`,
    );
    expect(run.stderr).not.toContain('offline scripted model');
    const result = AgentResult.parse(JSON.parse(run.stdout));
    const { taskQueue } = await env.client.workflow.getHandle(result.chain.chainId).describe();
    expect(taskQueue).toBe(queue);
  });

  it("says while following when nobody takes the run's tasks (a worker that stopped a moment ago still looks like a poller)", async () => {
    const queue = `gone-${randomUUID()}`;
    // Unversioned: a versioned worker's poller is gone from the queue's list as soon as it dies.
    const gone = spawnCli(['worker', '--unversioned'], cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }));
    processes.push(gone);
    await gone.waitFor(/worker polling task queue/);
    // The log line comes before the first poll reaches the server: kill it once the server lists it.
    for (let i = 0; i < 100 && (await workflowPollers(env.client, queue)).length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    gone.child.kill('SIGKILL');
    await gone.exited;

    const cli = spawnCli(
      ['run', 'Compare the weather in Paris and Tokyo', '--no-worker'],
      cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }),
    );
    processes.push(cli);
    await cli.waitFor(/Started (\S+)/, FAST_MS);
    const workflowId = /Started (\S+)/.exec(cli.output())![1]!;
    runIds.push({ agents: new AgentClient({ client: env.client }), workflowId });
    await cli.waitFor(/has waited \d+ s for a worker: none takes its tasks/, 30_000);
    expect(cli.output()).toContain(`task queue "${queue}"`);
    expect(cli.output()).toContain('thoughtline worker [--tools FILE]');

    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(130);
    expect(cli.output()).toContain(
      `Stopped following ${workflowId}. The run keeps its state in Temporal and goes on on the workers of task queue "${queue}".`,
    );
  });

  it('--workflow-id of a run already running is refused with what to do, exit 1', async () => {
    const workflowId = await unservedRun(`nobody-${randomUUID()}`);
    const run = await runCli(['run', 'Again', '--workflow-id', workflowId], cliEnv({}));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `a run with id ${workflowId} is already running; watch it with:\n  npx thoughtline watch ${workflowId}`,
    );
    expect(run.stderr).not.toMatch(/Workflow execution already started/i);
  });
});
