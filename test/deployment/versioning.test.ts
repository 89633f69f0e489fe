import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { temporal } from '@temporalio/proto';
import { describe, expect, inject, it } from 'vitest';
import { createScriptedModel, say, useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { buildIdOf, listVersions, packageVersion } from '../../src/deployment';
import { createAgentWorker, workerVersion } from '../../src/worker';
import { waitForPending, writeFileTool } from '../helpers/approval-helpers';
import { scriptedInput } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

/** The build ids of the workers that completed a run's workflow tasks, in order. */
function buildsThatRan(history: temporal.api.history.v1.IHistory): string[] {
  return (history.events ?? []).flatMap((e) => {
    const done = e.workflowTaskCompletedEventAttributes;
    if (!done) return [];
    const id = done.deploymentVersion?.buildId ?? done.workerVersion?.buildId ?? '';
    return [id];
  });
}

describe('upgrades through Worker Deployment Versioning', () => {
  it(
    'a run started on build A finishes on A after B became current; B takes every new run; A drains, shows drained and stops',
    { timeout: 120_000 },
    async () => {
      const codeA = fs.readFileSync(inject('workflowBundlePath'), 'utf8');
      // The same workflows as another build: any change to the bundle is a new build id.
      const codeB = `// build B\n${codeA}`;
      const taskQueue = `versioning-${randomUUID()}`;
      const namespace = inject('temporalNamespace');
      const ran: Array<Record<string, unknown>> = [];
      const worker = (code: string, model: ReturnType<typeof createScriptedModel>) =>
        createAgentWorker({
          connection: env.nativeConnection,
          namespace,
          taskQueue,
          tools: [writeFileTool(ran)],
          models: { scripted: model },
          workflowBundle: { code },
          deployment: { name: taskQueue },
          workerOptions: { maxCachedWorkflows: 0 },
        });
      const agents = new AgentClient({ client: env.client, taskQueue });

      const modelA = createScriptedModel([
        {
          content: [
            say('Calling write_file for the task.'),
            useTool('write_file', { path: '/tmp/a', text: 'a' }, 'toolu_a'),
          ],
        },
        { content: [useTool('finish', { result: 'a done' })] },
      ]);
      const workerA = await worker(codeA, modelA);
      const a = workerVersion(workerA)!;
      expect(a).toEqual({ deploymentName: taskQueue, buildId: buildIdOf(packageVersion(), codeA) });
      const runningA = workerA.run();

      // Build A is current: the run starts there and waits for a person.
      const old = await agents.start(scriptedInput('Write the file', { approvalTimeoutMs: 60_000 }));
      await waitForPending(agents, old.workflowId);

      // Build B starts and makes itself current: every new run goes to it.
      const modelB = createScriptedModel([
        { content: [useTool('finish', { result: 'b done' })] },
        { content: [useTool('finish', { result: 'b again' })] },
      ]);
      const workerB = await worker(codeB, modelB);
      const b = workerVersion(workerB)!;
      expect(b.buildId).not.toBe(a.buildId);
      const runningB = workerB.run();
      const fresh = await agents.start(scriptedInput('Answer'));
      expect((await fresh.result()).finalAnswer).toBe('b done');
      expect(new Set(buildsThatRan(await fresh.fetchHistory()))).toEqual(new Set([b.buildId]));
      const versions = await listVersions(env.client, taskQueue);
      expect(versions.find((v) => v.buildId === b.buildId)?.status).toBe('current');
      expect(versions.find((v) => v.buildId === a.buildId)?.status).toBe('draining');
      expect(versions.map((v) => v.pollers)).toEqual([1, 1]); // both workers poll

      // The old run is the one open run pinned to A.
      const openOnA = () =>
        env.client.workflow
          .count(
            `TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running' AND TemporalWorkerDeploymentVersion = '${taskQueue}:${a.buildId}'`,
          )
          .then((c) => c.count);
      await expect.poll(openOnA, { timeout: 10_000 }).toBe(1);

      // The approval decided now completes the old run on A's worker, which B never touches.
      await agents.decide(old.workflowId, { callId: 'toolu_a', approved: true, by: { id: 'alice', roles: [] } });
      expect(await old.result()).toMatchObject({ success: true, finalAnswer: 'a done' });
      expect(ran).toHaveLength(1);
      const oldBuilds = buildsThatRan(await old.fetchHistory());
      expect(oldBuilds.length).toBeGreaterThan(2);
      expect(new Set(oldBuilds)).toEqual(new Set([a.buildId]));
      expect((await old.describe()).raw.workflowExecutionInfo?.versioningInfo?.behavior).toBe(1); // VERSIONING_BEHAVIOR_PINNED

      // A has no open run left: Temporal marks it drained (the dev servers check every few seconds,
      // src/dev-server/versioning-dynamic-config.ts), its worker can stop, and B goes on alone.
      await expect.poll(openOnA, { timeout: 10_000 }).toBe(0);
      const statusOfA = async () =>
        (await listVersions(env.client, taskQueue)).find((v) => v.buildId === a.buildId)?.status;
      await expect.poll(statusOfA, { timeout: 30_000, interval: 500 }).toBe('drained');
      workerA.shutdown();
      await runningA;
      modelA.verify();
      const later = await agents.start(scriptedInput('Answer again'));
      expect((await later.result()).finalAnswer).toBe('b again');
      workerB.shutdown();
      await runningB;
      modelB.verify();
    },
  );
});
