import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { AgentClient } from '../../../src/client/agent-client';
import { startFakeMessagesServer } from '../../../src/testing';
import { cliEnv, spawnCli } from '../../helpers/cli-process';
import { activityAttempts } from './activity-attempts';
import { createChaosModel, type ChaosModel } from './chaos-model';
import { chaosAgentInput, type RunPlan } from './chaos-plan';
import { startFakeExternalService } from './fake-external-service';
import type { ObservedRun, RunEvidence } from './run-problems';
import { createToolKillHooks } from './tool-kill-hooks';
import { withDeadline } from './with-deadline';
import { startWorkerRelay, type WorkerRelay } from './worker-relay';

/**
 * A call the killed worker made just before SIGKILL can reach a fake after the signal, even
 * after its exit is seen (buffered bytes). Its successor needs seconds to start, so every ask
 * within this long of the exit came from the dead worker: the repeat check counts the kill there.
 */
const DEAD_WORKER_GRACE_MS = 500;

/** What one wave of runs left behind, for the checks. */
export interface WaveOutcome extends RunEvidence {
  runs: Array<ObservedRun & { finishedAt: number }>;
  model: ChaosModel;
  relay: WorkerRelay;
  /** Harness problems: the fake servers' errors and workers that died on their own. */
  problems: string[];
  /** Kill points that fired (some join a kill already under way). */
  fired: Set<string>;
}

/**
 * Runs `plans` concurrently on a CLI worker process that is SIGKILLed at each run's kill point
 * and replaced at once. Each wave has its own task queue, fake model, external service and worker.
 */
export async function runKillWave(
  client: Client,
  plans: readonly RunPlan[],
  toolsFile: string,
  deadlineMs: number,
): Promise<WaveOutcome> {
  const origin = performance.now();
  const suffix = randomUUID().slice(0, 8);
  const workflowIdOf = (plan: RunPlan) => `chaos-${plan.label}-${suffix}`;
  let relay: WorkerRelay | undefined;
  const killer = {
    get generation() {
      return relay?.generation ?? 0;
    },
    kill: (g: number, reason: string) => relay?.kill(g, reason) ?? Promise.resolve(),
  };
  const model = createChaosModel(new Map(plans.map((p) => [p.label, p])), { killer });
  const toolHooks = createToolKillHooks(new Map(plans.map((p) => [workflowIdOf(p), p])), killer);
  const fake = await startFakeMessagesServer({ script: Array.from({ length: 10_000 }, () => model.entry) });
  const service = await startFakeExternalService(toolHooks);
  const taskQueue = `chaos-kills-${suffix}`;
  const workerEnv = cliEnv({
    THOUGHTLINE_TASK_QUEUE: taskQueue,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: fake.baseUrl,
    CHAOS_SERVICE_URL: service.url,
  });
  try {
    relay = await startWorkerRelay(() => spawnCli(['worker', '--tools', toolsFile], workerEnv));
    const agents = new AgentClient({ client, taskQueue });
    const results = await withDeadline(
      Promise.all(
        plans.map(async (plan) => {
          const result = await (await agents.start(chaosAgentInput(plan), { workflowId: workflowIdOf(plan) })).result();
          return { result, finishedAt: performance.now() };
        }),
      ),
      deadlineMs,
      () =>
        `runs not done after ${deadlineMs} ms; kills so far:\n${relay!.kills.map((k) => `  gen ${k.generation}: ${k.reason}`).join('\n')}`,
    );
    const runs = await Promise.all(
      plans.map(async (plan, i) => ({
        plan,
        workflowId: workflowIdOf(plan),
        ...results[i]!,
        activities: await activityAttempts(client, workflowIdOf(plan)),
      })),
    );
    await relay.stop();
    return {
      runs,
      model,
      service,
      relay,
      interruptions: relay.kills.map((k) => ({ at: (k.exitedAt ?? k.at) + DEAD_WORKER_GRACE_MS })),
      modelRecords: fake.requests,
      origin,
      problems: [...fake.errors, ...service.errors.map((e) => `external service: ${e}`), ...relay.unexpectedExits],
      fired: new Set([...model.fired, ...toolHooks.fired]),
    };
  } finally {
    await relay?.stop();
    await fake.close();
    await service.close();
  }
}
