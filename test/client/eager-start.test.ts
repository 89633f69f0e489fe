import { Client } from '@temporalio/client';
import { describe, expect, inject, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { eagerStartOption } from '../../src/client/start/eager-start';
import { createScriptedModel, say } from '../../src/activities/models/scripted-model';
import { scriptedInput } from '../helpers/scripted-input';
import { createHarness, useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';

const env = useTestEnv();

/** A harness worker, and an AgentClient on the worker's own NativeConnection. */
async function sharedConnectionRun(task: string) {
  const h = await createHarness(env, {
    ...testTools(),
    models: { scripted: createScriptedModel([{ content: [say('done')] }]) },
  });
  const agents = new AgentClient({
    client: new Client({ connection: env.nativeConnection, namespace: inject('temporalNamespace') }),
    taskQueue: h.taskQueue,
  });
  return h.worker.runUntil(async () => {
    const handle = await agents.start(scriptedInput(task));
    const result = await handle.result();
    return { eagerly: (handle as { eagerlyStarted?: boolean }).eagerlyStarted, result };
  });
}

describe('eager start', () => {
  it('is asked for only over a NativeConnection, which a worker can share', () => {
    expect(eagerStartOption(env.client)).toEqual({});
    const shared = new Client({ connection: env.nativeConnection, namespace: inject('temporalNamespace') });
    expect(eagerStartOption(shared)).toEqual({ requestEagerStart: true });
  });

  it("hands a run's first workflow task to the worker on the client's connection, and the run ends as usual", async () => {
    const { eagerly, result } = await sharedConnectionRun('eager');
    expect(eagerly).toBe(true);
    expect(result.finalAnswer).toBe('done');
  });

  it('starts the usual way from a client of its own', async () => {
    const h = await createHarness(env, {
      ...testTools(),
      models: { scripted: createScriptedModel([{ content: [say('done')] }]) },
    });
    const { eagerly } = await h.worker.runUntil(async () => {
      const handle = await h.agents.start(scriptedInput('not eager'));
      await handle.result();
      return { eagerly: (handle as { eagerlyStarted?: boolean }).eagerlyStarted };
    });
    expect(eagerly).toBe(false);
  });
});
