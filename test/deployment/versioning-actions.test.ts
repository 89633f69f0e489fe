import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, useTool } from '../../src/activities/models/scripted-model';
import { AgentClient } from '../../src/client/agent-client';
import { billableActions } from '../../src/client/runs/billable-actions';
import { defineTool } from '../../src/tools/define-tool';
import { createAgentWorker, workerVersion } from '../../src/worker';
import { scriptedInput } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a number up',
  input: z.object({ n: z.number() }),
  execute: ({ n }) => `value ${n}`,
});

/** One run of the same script (two lookups, then finish) on a worker of its own queue; its history. */
async function runOnce(deployment: { name: string } | undefined) {
  const taskQueue = `versioning-actions-${randomUUID()}`;
  const model = createScriptedModel([
    { content: [useTool('lookup', { n: 1 })] },
    { content: [useTool('lookup', { n: 2 })] },
    { content: [useTool('finish', { result: 'done' })] },
  ]);
  const worker = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: inject('temporalNamespace'),
    taskQueue,
    tools: [lookup],
    models: { scripted: model },
    workflowBundle: { codePath: inject('workflowBundlePath') },
    ...(deployment ? { deployment } : {}),
  });
  const history = await worker.runUntil(async () => {
    const handle = await new AgentClient({ client: env.client, taskQueue }).start(scriptedInput('Look two up'));
    expect((await handle.result()).finalAnswer).toBe('done');
    return handle.fetchHistory();
  });
  model.verify();
  return { history, version: workerVersion(worker) };
}

describe('worker versioning and billable actions', () => {
  it('a run on a versioned worker costs the same Temporal actions as on an unversioned one', async () => {
    const versioned = await runOnce({ name: `versioning-actions-${randomUUID()}` });
    const plain = await runOnce(undefined);
    // The run really was versioned: its workflow tasks carry the build id, the plain one's none.
    const builds = (h: typeof plain.history) =>
      new Set(
        (h.events ?? []).flatMap((e) =>
          e.workflowTaskCompletedEventAttributes
            ? [e.workflowTaskCompletedEventAttributes.deploymentVersion?.buildId ?? '']
            : [],
        ),
      );
    expect(builds(versioned.history)).toEqual(new Set([versioned.version!.buildId]));
    expect(builds(plain.history)).toEqual(new Set(['']));
    expect(billableActions(versioned.history)).toEqual(billableActions(plain.history));
    expect(billableActions(versioned.history).total).toBeGreaterThan(0);
  });
});
