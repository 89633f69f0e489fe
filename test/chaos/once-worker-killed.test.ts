import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { startFakeMessagesServer, type FakeMessagesServer } from '../../src/testing';
import { waitForPending, pollFor } from '../helpers/approval-helpers';
import { toolResults } from '../helpers/chain-helpers';
import { cliEnv, PROJECT_ROOT, spawnCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';
import { startFakeExternalService, type FakeExternalService } from './lib/fake-external-service';
import { jobRunInput, jobRunModel, jobRunScript } from './lib/job-runs';
import { startWorkerProcesses, type WorkerProcesses } from './lib/worker-processes';

/**
 * Issue 46, effects that happen once, with a real kill: a worker process is SIGKILLed while it runs
 * a `slow_job` declared `effects: 'once'` (its effect applied at the fake service, the answer
 * held). Temporal does not run it again by itself; the run asks a person, and the person's
 * decision is what happens: give up leaves one attempt, run again sends a second with the same key.
 */
const env = useTestEnv();

let dir: string;
let fake: FakeMessagesServer;
let service: FakeExternalService;
let workers: WorkerProcesses | undefined;
const held = new Set<string>();

/** The tools module a CLI worker loads: `slow_job` as a once tool, applied at the fake service. */
function writeOnceToolsModule(folder: string): string {
  const file = path.join(folder, 'once-tools.js');
  fs.writeFileSync(
    file,
    `const { z } = require('zod');
const { defineTool } = require(${JSON.stringify(path.join(PROJECT_ROOT, 'dist/tools/define-tool'))});
exports.tools = [
  defineTool({
    name: 'slow_job', description: 'Runs a job of a run step, once',
    input: z.object({ run: z.string(), step: z.number().int() }),
    effects: 'once', timeoutMs: 3600000,
    execute: async (args, ctx) => {
      const res = await fetch(process.env.CHAOS_SERVICE_URL + '/effects', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: ctx.idempotencyKey, tool: 'slow_job', args, worker: process.pid }),
        signal: ctx.signal,
      });
      if (!res.ok) throw new Error('external service answered ' + res.status);
      return res.json();
    },
  }),
];
`,
  );
  return file;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(PROJECT_ROOT, '.thoughtline/tmp/once-killed-'));
  fake = await startFakeMessagesServer({ script: jobRunScript(jobRunModel()) });
  // Each key's first attempt is applied and its answer held: the call runs until its worker dies.
  service = await startFakeExternalService({
    onEffect: (attempt) => (attempt.applied && !held.has(attempt.key) ? (held.add(attempt.key), 'hold') : 'reply'),
  });
});
afterAll(async () => {
  await workers?.stop();
  await fake?.close();
  await service?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a worker SIGKILLed inside a once tool', () => {
  it('is not run again by Temporal: a person gives up (one attempt) or runs it again (same key)', async () => {
    const taskQueue = `once-killed-${randomUUID().slice(0, 8)}`;
    const workerEnv = cliEnv({
      THOUGHTLINE_TASK_QUEUE: taskQueue,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.baseUrl,
      CHAOS_SERVICE_URL: service.url,
    });
    const toolsFile = writeOnceToolsModule(dir);
    workers = await startWorkerProcesses(1, () => spawnCli(['worker', '--tools', toolsFile], workerEnv));
    const agents = new AgentClient({ client: env.client, taskQueue });

    /** Starts a run, kills the worker inside its call, starts a fresh worker, and returns the pending question. */
    const killInside = async (label: string) => {
      const handle = await agents.start(jobRunInput(label, 1));
      const attempt = await pollFor(
        `${label}'s call to reach the service`,
        () => service.attempts.find((a) => (a.args as { run?: string }).run === label),
        60_000,
        50,
      );
      await workers!.kill(attempt.worker!);
      await workers!.add();
      const [pending] = await waitForPending(agents, handle.workflowId);
      expect(pending).toMatchObject({ kind: 'outcome_unknown', toolName: 'slow_job', status: 'pending' });
      return { handle, key: attempt.key, callId: pending!.callId };
    };

    const abandoned = await killInside('giveup');
    await agents.decide(abandoned.handle.workflowId, {
      callId: abandoned.callId,
      approved: false,
      by: 'ops',
      reason: 'checking the job by hand',
    });
    const gaveUp = await abandoned.handle.result();
    expect(toolResults(gaveUp.chain.steps)[0]).toMatchObject({ success: false, outcome: 'unknown' });
    expect(service.attempts.filter((a) => a.key === abandoned.key)).toHaveLength(1);

    const retried = await killInside('again');
    await agents.decide(retried.handle.workflowId, { callId: retried.callId, approved: true, by: 'ops' });
    const ranAgain = await retried.handle.result();
    expect(ranAgain).toMatchObject({ success: true, finalAnswer: 'again done' });
    expect(toolResults(ranAgain.chain.steps)[0]).toMatchObject({ success: true });
    // The second attempt carried the first one's key, so the service did not apply it twice.
    expect(service.attempts.filter((a) => a.key === retried.key).map((a) => a.applied)).toEqual([true, false]);
    expect(fake.errors).toEqual([]);
  }, 180_000);
});
