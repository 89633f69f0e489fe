import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isGrpcServiceError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentHandle } from '../../src/client/agent-client';
import { AgentClient } from '../../src/client/agent-client';
import { restartClusterPostgres, restartServerRoles } from '../../src/dev-server/cluster';
import { clusterPaths } from '../../src/dev-server/cluster/cluster-paths';
import { postgresPid } from '../../src/dev-server/cluster/database/cluster-postgres';
import { isOurProcess } from '../../src/dev-server/cluster/lifecycle/cluster-state';
import { freePort } from '../../src/dev-server/probes/free-port';
import type { AgentResult } from '../../src/domain';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../src/testing';
import { pollFor } from '../helpers/approval-helpers';
import { cliEnv, PROJECT_ROOT, spawnCli, type CliProcess } from '../helpers/cli-process';
import { startRedisServer, type RedisServer } from '../helpers/redis-server';
import { suiteCluster } from '../helpers/suite-cluster';
import { useTestEnv } from '../helpers/temporal-env';
import { stepNumbers } from '../server/events-harness';
import { writeTokenFile } from '../server/server-harness';
import { writeChaosToolsModule } from '../chaos/lib/chaos-tools-module';
import { startFakeExternalService, type FakeExternalService } from '../chaos/lib/fake-external-service';
import { jobRunInput, jobRunModel, jobRunScript } from '../chaos/lib/job-runs';
import { watchWithFailover, type ResumingWatcher } from '../chaos/lib/resuming-watcher';
import { startWorkerProcesses, type WorkerProcesses } from '../chaos/lib/worker-processes';

/**
 * Issue 45, production topology tested for real: on the suite's cluster (the real Temporal server's
 * four roles on PostgreSQL), two worker processes and two `thoughtline serve` instances sharing
 * Redis run several agents whose every tool call is a side effect at a fake external service,
 * counted by idempotency key. Meanwhile a worker is SIGKILLed mid-call, a serve instance is
 * SIGKILLed under 20 SSE watchers, the Temporal server is restarted and PostgreSQL is restarted.
 * No run is lost, no side effect applied twice, no SSE step missed or received twice; the
 * failover and reconnect times are printed.
 */
const env = useTestEnv();
const FAILOVER_LIMIT_MS = 10_000;
const WATCHERS = 20;
// Each model reply waits this long, so runs are still going when the chaos strikes.
const REPLY_DELAY_MS = 300;

let dir: string;
let redis: RedisServer | undefined;
let fake: FakeMessagesServer;
let service: FakeExternalService;
let workers: WorkerProcesses | undefined;
let serves: Array<{ url: string; process: CliProcess }> = [];
let token: string;
let agents: AgentClient;
/** Every run started, with the steps it was asked for: all must succeed with exactly those effects. */
const runs: Array<{ label: string; steps: number; handle: AgentHandle }> = [];
/** The call whose first attempt is applied and then held until its worker dies: the run's label prefix and step. */
let holdCall: { runPrefix: string; step: number } | undefined;
const figures: string[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/production-chaos-'));
  const taskQueue = `production-chaos-${randomUUID().slice(0, 8)}`;
  redis = await startRedisServer();
  fake = await startFakeMessagesServer({ script: jobRunScript(jobRunModel({ replyDelayMs: REPLY_DELAY_MS })) });
  service = await startFakeExternalService({
    onEffect: ({ applied, args }) => {
      const hold =
        applied && String(args['run']).startsWith(holdCall?.runPrefix ?? '\0') && args['step'] === holdCall?.step;
      if (hold) holdCall = undefined;
      return hold ? 'hold' : 'reply';
    },
  });
  const toolsFile = writeChaosToolsModule(dir);
  const shared = { THOUGHTLINE_TASK_QUEUE: taskQueue, THOUGHTLINE_EVENTS: redis.url };
  const workerEnv = cliEnv({
    ...shared,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: fake.baseUrl,
    CHAOS_SERVICE_URL: service.url,
  });
  const tokens = writeTokenFile(dir);
  token = tokens.tokens.solo;
  const startServe = async (): Promise<{ url: string; process: CliProcess }> => {
    const port = await freePort();
    const serve = spawnCli(['serve', '--port', String(port), '--tokens', tokens.file], cliEnv(shared));
    await serve.waitFor(/serving http/, 90_000);
    return { url: `http://127.0.0.1:${port}`, process: serve };
  };
  [workers, ...serves] = await Promise.all([
    startWorkerProcesses(2, () => spawnCli(['worker', '--tools', toolsFile], workerEnv)),
    startServe(),
    startServe(),
  ]);
  agents = new AgentClient({ client: env.client, taskQueue });
}, 240_000);

afterAll(async () => {
  console.log(`[production chaos]\n  ${figures.join('\n  ')}`);
  await workers?.stop();
  for (const serve of serves) serve.process.child.kill('SIGKILL');
  await Promise.all(serves.map((s) => s.process.exited));
  await fake?.close();
  await service?.close();
  await redis?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function startRuns(prefix: string, count: number, steps: number): Promise<typeof runs> {
  const started = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const label = `${prefix}-${i}-${randomUUID().slice(0, 6)}`;
      return { label, steps, handle: await agents.start(jobRunInput(label, steps)) };
    }),
  );
  runs.push(...started);
  return started;
}

/** The run's result, asking again while the server is unreachable (a restart in progress). */
async function resultOf(handle: AgentHandle, timeoutMs = 180_000): Promise<AgentResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await handle.result();
    } catch (err) {
      if (Date.now() > deadline || !(isGrpcServiceError(err) || /unavailable|connect/i.test(String(err)))) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Effects the service has applied for a run, by step. */
const effectsOf = (label: string): number =>
  [...service.applied.values()].filter((e) => e.tool === 'slow_job' && e.args['run'] === label).length;

/** Model calls the fake model has received for a run, retries included. */
const modelCallsOf = (label: string): number =>
  fake.requests.filter((r) => JSON.stringify(r.body?.messages[0] ?? '').includes(label)).length;

/** Waits until every run has applied at least `steps` effects: they are mid-way. */
const midway = (started: typeof runs, steps: number): Promise<true> =>
  pollFor('the runs to be mid-way', () => started.every((r) => effectsOf(r.label) >= steps) || undefined, 90_000, 50);

const seconds = (ms: number): string => `${(ms / 1_000).toFixed(1)} s`;

describe('chaos on a production-like cluster', () => {
  it('a worker SIGKILLed mid-call: the other worker takes the call over within 10 s', async () => {
    // The victim run's second tool call is held: it runs until its worker dies.
    holdCall = { runPrefix: 'kill-0-', step: 1 };
    const [victimRun, ...others] = await startRuns('kill', 4, 3);
    const heldAttempt = await pollFor(
      'the victim run to reach its second tool call',
      () => service.attempts.find((a) => a.args['run'] === victimRun!.label && a.args['step'] === 1),
      90_000,
      20,
    );
    expect(heldAttempt.held).toBe(true);
    const killedAt = await workers!.kill(heldAttempt.worker!);
    const replacement = workers!.add();
    const retry = await pollFor(
      'the held call to be retried',
      () => service.attempts.find((a) => a.key === heldAttempt.key && a !== heldAttempt),
      60_000,
      20,
    );
    // The run goes on: its next model call, made by a workflow task on the other worker.
    const wentOnAt = await pollFor(
      'the victim run to call the model after the takeover',
      () => (modelCallsOf(victimRun!.label) >= 3 ? performance.now() : undefined),
      60_000,
      20,
    );
    const result = await resultOf(victimRun!.handle);
    const finishedAt = performance.now();
    await Promise.all([...others.map((r) => resultOf(r.handle)), replacement]);
    figures.push(
      `worker SIGKILLed mid-call: the call taken over by pid ${retry.worker} ${seconds(retry.at - killedAt)} after the kill, ` +
        `the run's next step ${seconds(wentOnAt - killedAt)} after it, the run finished ${seconds(finishedAt - killedAt)} after it`,
    );
    expect(result.success).toBe(true);
    expect(retry.worker).not.toBe(heldAttempt.worker);
    expect(retry.applied).toBe(false);
    expect(retry.at - killedAt).toBeLessThan(FAILOVER_LIMIT_MS);
    expect(wentOnAt - killedAt).toBeLessThan(FAILOVER_LIMIT_MS);
  }, 180_000);

  it(`a serve instance SIGKILLed under ${WATCHERS} SSE watchers: they resume on the other, nothing missed or repeated`, async () => {
    const [watched] = await startRuns('watched', 1, 10);
    const watchers: ResumingWatcher[] = Array.from({ length: WATCHERS }, () =>
      watchWithFailover(serves, watched!.handle.workflowId, { token }),
    );
    await pollFor(
      'every watcher to have seen 2 steps',
      () => watchers.every((w) => stepNumbers(w.messages).length >= 2) || undefined,
      90_000,
      20,
    );
    const killedAt = performance.now();
    serves[0]!.process.child.kill('SIGKILL');
    await serves[0]!.process.exited;
    await Promise.all(watchers.map((w) => w.done));
    const result = await resultOf(watched!.handle);
    const all = result.chain.steps.map((s) => s.stepNumber);
    const reconnects = watchers.flatMap((w) => w.reconnectsMs).sort((a, b) => a - b);
    figures.push(
      `serve SIGKILLed under ${WATCHERS} watchers: ${reconnects.length} reconnects to the other instance, ` +
        `first message after ${seconds(reconnects[0] ?? NaN)} (median ${seconds(reconnects[Math.floor(reconnects.length / 2)] ?? NaN)}, ` +
        `max ${seconds(reconnects.at(-1) ?? NaN)}), all ${all.length} steps seen once; ` +
        `stream ends ${seconds(performance.now() - killedAt)} after the kill`,
    );
    expect(result.success).toBe(true);
    for (const watcher of watchers) expect(stepNumbers(watcher.messages)).toEqual(all);
    expect(reconnects).toHaveLength(WATCHERS);
  }, 180_000);

  it('the Temporal server restarted mid-run: every run finishes', async () => {
    const started = await startRuns('temporal-restart', 3, 5);
    await midway(started, 1);
    const before = suiteCluster().processes.map((p) => p.pid);
    const restartAt = performance.now();
    const restarted = await restartServerRoles({ name: suiteCluster().name, log: () => {} });
    const restartedAt = performance.now();
    // Four new processes, none of the old left.
    const { serverConfig } = clusterPaths(PROJECT_ROOT, restarted.name);
    const after = restarted.processes.map((p) => p.pid);
    expect(after.filter((pid) => before.includes(pid) || !isOurProcess(pid, serverConfig))).toEqual([]);
    expect(before.filter((pid) => isOurProcess(pid, serverConfig))).toEqual([]);
    const results = await Promise.all(started.map((r) => resultOf(r.handle)));
    figures.push(
      `Temporal server restarted (four roles): down and back in ${seconds(restartedAt - restartAt)}, ` +
        `its ${started.length} runs finished ${seconds(performance.now() - restartedAt)} later`,
    );
    expect(results.map((r) => r.success)).toEqual(started.map(() => true));
  }, 300_000);

  it('PostgreSQL restarted mid-run: every run finishes', async () => {
    const started = await startRuns('postgres-restart', 3, 5);
    await midway(started, 1);
    const paths = clusterPaths(PROJECT_ROOT, suiteCluster().name);
    const before = postgresPid(paths);
    const restartAt = performance.now();
    await restartClusterPostgres({ name: suiteCluster().name, log: () => {} });
    const restartedAt = performance.now();
    // A new postmaster (the old pid may linger as a zombie: nothing in this container reaps it).
    const after = postgresPid(paths);
    expect(after !== undefined && after !== before).toBe(true);
    const results = await Promise.all(started.map((r) => resultOf(r.handle)));
    figures.push(
      `PostgreSQL restarted: down and back in ${seconds(restartedAt - restartAt)}, ` +
        `its ${started.length} runs finished ${seconds(performance.now() - restartedAt)} later`,
    );
    expect(results.map((r) => r.success)).toEqual(started.map(() => true));
  }, 240_000);

  it('after all of it: no run lost, no side effect applied twice, every repeat deduplicated by its key', async () => {
    const results = await Promise.all(runs.map((r) => resultOf(r.handle)));
    const lost = runs.filter((_, i) => !results[i]!.success).map((r) => r.label);
    // Each run's tool calls, as its chain records them, against the effects the service applied.
    const expected = runs.flatMap((r) => Array.from({ length: r.steps }, (_, step) => `${r.label}/${step}`)).sort();
    const applied = [...service.applied.values()].map((e) => `${String(e.args['run'])}/${String(e.args['step'])}`);
    const repeats = service.attempts.filter((a) => !a.applied).length;
    figures.push(
      `${runs.length} runs, ${lost.length} lost; ${applied.length} side effects applied for ${expected.length} tool calls; ` +
        `${repeats} repeated attempts answered from the service's record by idempotency key`,
    );
    expect(lost).toEqual([]);
    expect(applied.sort()).toEqual(expected);
    expect(new Set(applied).size).toBe(applied.length);
    expect(results.reduce((n, r) => n + r.toolCalls, 0)).toBe(expected.length);
    expect([...fake.errors, ...service.errors]).toEqual([]);
  }, 240_000);
});
