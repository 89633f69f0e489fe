import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { placeRun } from '../../src/client/follow/run-placement';
import { buildOfIdentity, cliWorkerIdentity, isOtherBuild } from '../../src/cli/setup/worker-identity';
import { cliEnv, spawnCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

describe("a CLI worker's identity names its code's build", () => {
  it('reads back, and another build is foreign while an unknown worker is not', () => {
    const mine = cliWorkerIdentity('abc123');
    expect(mine).toMatch(/^\d+@\S+ thoughtline-cli build abc123$/);
    expect(buildOfIdentity(mine)).toBe('abc123');
    expect(buildOfIdentity('4242@host')).toBeUndefined();
    const foreign = isOtherBuild('abc123');
    expect(foreign(mine)).toBe(false);
    expect(foreign(cliWorkerIdentity('def456'))).toBe(true);
    // A project's own worker (createAgentWorker): nothing says its code differs; runs may go to it.
    expect(foreign('4242@host')).toBe(false);
  });
});

describe('run placement with a worker of another build on the queue', () => {
  it('passes it over for a private queue of its own, naming it (eval too); a worker of the same build takes the run', async () => {
    const queue = `placement-${randomUUID()}`;
    const other = cliWorkerIdentity('other-build');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: inject('temporalNamespace'),
      taskQueue: queue,
      identity: other,
      workflowsPath: path.join(__dirname, 'eval-stub-workflow.ts'),
    });
    const running = worker.run();
    try {
      // The server lists a poller once it polls: wait for it as `run` would see it.
      const wish = { standingOnly: false, ownOnly: false };
      for (let i = 0; i < 50; i++) {
        if ((await placeRun(env.client, queue, wish)).worker === 'standing') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const passed = await placeRun(env.client, queue, { ...wish, isForeign: isOtherBuild('this-build') });
      expect(passed).toMatchObject({ worker: 'own', passedOver: [other] });
      expect(passed.taskQueue).toMatch(new RegExp(`^${queue}-run-[0-9a-f]{8}$`));
      expect(await placeRun(env.client, queue, { ...wish, isForeign: isOtherBuild('other-build') })).toEqual({
        worker: 'standing',
        taskQueue: queue,
      });
      // eval places its evaluation as run places a run: passed over, named, never sent to that worker.
      // One case, no recorded replies (those would need this process's worker anyway); reports out of the repo.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-placement-'));
      fs.writeFileSync(
        path.join(dir, 'one.jsonl'),
        `${JSON.stringify({ id: 'weather', task: 'Weather in Paris?' })}\n`,
      );
      const evaluation = spawnCli(
        ['eval', path.join(dir, 'one.jsonl'), '--out', path.join(dir, 'out')],
        cliEnv({ THOUGHTLINE_TASK_QUEUE: queue }),
      );
      try {
        await evaluation.waitFor(/other code than this checkout|the evaluation goes to it/);
        expect(evaluation.output()).toContain(
          `1 worker polling task queue "${queue}" runs other code than this checkout`,
        );
        expect(evaluation.output()).toContain(`  ${other}\n`);
        expect(evaluation.output()).toMatch(
          /the evaluation goes to this process's own worker on task queue "[^"]+-run-[0-9a-f]{8}"/,
        );
      } finally {
        evaluation.child.kill('SIGTERM');
        await evaluation.exited;
      }
    } finally {
      worker.shutdown();
      await running;
    }
  }, 60_000);
});
