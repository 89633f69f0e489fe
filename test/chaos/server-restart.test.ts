import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../src/testing';
import { cliEnv, PROJECT_ROOT, spawnCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';
import { chaosSettings } from './chaos-settings';
import { activityAttempts } from './lib/activity-attempts';
import { createChaosModel } from './lib/chaos-model';
import { chaosAgentInput, planRun } from './lib/chaos-plan';
import { writeChaosToolsModule } from './lib/chaos-tools-module';
import { startFakeExternalService, type FakeExternalService } from './lib/fake-external-service';
import { runReferences } from './lib/reference-runs';
import { startRestartableDevServer, type RestartableDevServer } from './lib/restartable-dev-server';
import { runProblems } from './lib/run-problems';
import { runSeed, seededRandom } from './lib/seeded-random';
import { withDeadline } from './lib/with-deadline';
import { startWorkerRelay, type WorkerRelay } from './lib/worker-relay';

// The same at both sizes: one restart of a few runs already exercises every reconnect.
const RUNS = 4;
const REPLY_DELAY_MS = 300;
const DEADLINE_MS = 150_000;
const { seed } = chaosSettings();

const env = useTestEnv();
let dir: string;
let server: RestartableDevServer | undefined;
let connection: Connection | undefined;
let relay: WorkerRelay | undefined;
let fake: FakeMessagesServer | undefined;
let service: FakeExternalService | undefined;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/chaos-restart-'));
});
afterAll(async () => {
  await relay?.stop();
  await connection?.close();
  await server?.stop('SIGKILL');
  await fake?.close();
  await service?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const seconds = (ms: number): string => (ms / 1000).toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('chaos: server restart', () => {
  it(`${RUNS} runs finish with the chains of undisturbed runs when their dev server restarts mid-run`, async () => {
    const scenarioSeed = runSeed(seed, 1_000);
    const rng = seededRandom(scenarioSeed);
    const signal = rng.pick(['SIGTERM', 'SIGKILL'] as const);
    // Model requests to wait for before the restart: at least one turn per run, well before the last.
    const afterRequests = rng.int(RUNS, 2 * RUNS);
    const downMs = rng.int(1_000, 5_000);
    const plans = Array.from({ length: RUNS }, (_, i) => planRun(scenarioSeed, i));
    console.log(
      `[chaos server-restart] seed ${seed} (reproduce: CHAOS_SEED=${seed}): ${signal} after ${afterRequests} model requests, down ${downMs} ms`,
    );

    const toolsFile = writeChaosToolsModule(dir);
    const referencing = runReferences(env, plans, toolsFile);
    referencing.catch(() => {});

    server = await startRestartableDevServer(dir);
    const model = createChaosModel(new Map(plans.map((p) => [p.label, p])), { replyDelayMs: REPLY_DELAY_MS });
    fake = await startFakeMessagesServer({ script: Array.from({ length: 10_000 }, () => model.entry) });
    service = await startFakeExternalService();
    const taskQueue = 'chaos-restart';
    const workerEnv = cliEnv({
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      THOUGHTLINE_TASK_QUEUE: taskQueue,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.baseUrl,
      CHAOS_SERVICE_URL: service.url,
    });
    relay = await startWorkerRelay(() => spawnCli(['worker', '--tools', toolsFile], workerEnv));
    connection = await Connection.connect({ address: server.address });
    const client = new Client({ connection, namespace: server.namespace });
    const agents = new AgentClient({ client, taskQueue });
    const began = performance.now();
    const handles = await Promise.all(
      plans.map((plan) => agents.start(chaosAgentInput(plan), { workflowId: `restart-${plan.label}` })),
    );
    const results = Promise.all(handles.map((h) => h.result()));
    results.catch(() => {});

    while (model.requests.length < afterRequests) await sleep(20);
    const before = `${model.requests.length} model requests and ${service.attempts.length} side effects`;
    const stoppedAt = performance.now();
    await server.stop(signal);
    const downAt = performance.now();
    await sleep(downMs);
    // A call whose answer was lost with the old server may be asked again once the new one runs.
    const restartedAt = performance.now();
    await server.start();
    console.log(
      `[chaos server-restart] ${signal} at +${seconds(stoppedAt - began)} s after ${before}; exited at +${seconds(downAt - began)} s, ` +
        `restarted at +${seconds(restartedAt - began)} s, namespace answering at +${seconds(performance.now() - began)} s`,
    );

    const finished = await withDeadline(
      results,
      DEADLINE_MS,
      () => `runs not done ${DEADLINE_MS} ms after the restart`,
    );
    console.log(
      `[chaos server-restart] all runs done at +${seconds(performance.now() - began)} s; workers that died on their own: ${relay.unexpectedExits.length}`,
    );
    for (const exit of relay.unexpectedExits) console.log(`[chaos server-restart] ${exit}`);

    const references = await referencing;
    const problems = [...fake.errors, ...service.errors];
    for (const [i, plan] of plans.entries()) {
      const run = {
        plan,
        workflowId: handles[i]!.workflowId,
        result: finished[i]!,
        activities: await activityAttempts(client, handles[i]!.workflowId),
      };
      problems.push(
        ...runProblems(run, references.get(plan.label)!, {
          model,
          modelRecords: fake.requests,
          service,
          interruptions: [{ at: restartedAt }],
          origin: began,
        }),
      );
    }
    expect(problems).toEqual([]);
    // The restart must have landed mid-run: some work before it, some after.
    expect(model.requests.filter((r) => r.at > restartedAt).length).toBeGreaterThan(0);
  }, 240_000);
});
