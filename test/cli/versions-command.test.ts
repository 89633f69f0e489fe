import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { createScriptedModel } from '../../src/activities/models/scripted-model';
import { listVersions } from '../../src/deployment';
import { createAgentWorker, workerVersion } from '../../src/worker';
import { cliEnv, runCli } from '../helpers/cli-process';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

describe('thoughtline versions and set-current-version', () => {
  // Five CLI processes and a worker: give a loaded machine time (each process takes seconds to start there).
  it(
    'list a deployment named by THOUGHTLINE_DEPLOYMENT_NAME with its pollers, and make a version current',
    { timeout: 180_000 },
    async () => {
      const taskQueue = `versions-cli-${randomUUID()}`;
      const name = `deployment-${randomUUID()}`;
      const cli = cliEnv({ THOUGHTLINE_TASK_QUEUE: taskQueue, THOUGHTLINE_DEPLOYMENT_NAME: name });

      const none = await runCli(['versions'], cli);
      expect(none.code, none.stderr).toBe(0);
      expect(none.stdout).toBe(
        `Deployment "${name}" has no versions: no versioned worker has polled it (thoughtline worker starts one).\n`,
      );

      // A worker that declares its version without routing to it (worker --keep-current).
      const worker = await createAgentWorker({
        connection: env.nativeConnection,
        namespace: inject('temporalNamespace'),
        taskQueue,
        tools: [],
        models: { scripted: createScriptedModel([]) },
        workflowBundle: { code: fs.readFileSync(inject('workflowBundlePath'), 'utf8') },
        deployment: { name, makeCurrent: false },
      });
      const { buildId } = workerVersion(worker)!;
      await worker.runUntil(async () => {
        const listed = async () => (await listVersions(env.client, name, taskQueue)).find((v) => v.buildId === buildId);
        await expect.poll(async () => (await listed())?.pollers, { timeout: 30_000, interval: 250 }).toBe(1);
        expect((await listed())?.status).toBe('inactive');

        const set = await runCli(['set-current-version', buildId], cli);
        expect(set.code, set.stderr).toBe(0);
        expect(set.stdout).toBe(
          `New runs of deployment "${name}" go to version ${buildId}; open runs stay on the version that started them.\n`,
        );

        const json = await runCli(['versions', '--json'], cli);
        expect(json.code, json.stderr).toBe(0);
        expect(JSON.parse(json.stdout)).toMatchObject({
          deployment: name,
          taskQueue,
          versions: [{ buildId, status: 'current', pollers: 1 }],
        });
        const text = await runCli(['versions'], cli);
        expect(text.stdout).toMatch(
          new RegExp(
            `^Deployment "${name}" \\(task queue "${taskQueue}"\\):\\ncurrent   ${buildId}  1 worker polling, created `,
          ),
        );
      });
    },
  );

  it("a deployment Temporal does not know is refused with Temporal's reason: exit 1", async () => {
    const name = `deployment-${randomUUID()}`;
    const refused = await runCli(
      ['set-current-version', 'no-such-build'],
      cliEnv({ THOUGHTLINE_DEPLOYMENT_NAME: name }),
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`no Worker Deployment found with name '${name}'`);
    expect(refused.stderr).not.toMatch(/^\s+at /m);
  });

  it('set-current-version takes a build id or --unversioned, exactly one: exit 2 otherwise', async () => {
    const message =
      'thoughtline: "set-current-version" needs a build id from thoughtline versions, or --unversioned (not both).\n';
    for (const args of [['set-current-version'], ['set-current-version', 'b1', '--unversioned']]) {
      const { code, stdout, stderr } = await runCli(args, cliEnv({}));
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toContain(message);
      expect(stdout).toBe('');
    }
  });
});
