/**
 * `workflowStackTraces: false` (workflows/no-stack-traces.ts): a bundle built as the docs say takes
 * no stack traces, so a waiting run's stack-trace query names no frame, and the run still ends with
 * its answer; a prebuilt bundle without the module is refused, not run with traces on.
 * Slow (a webpack bundle of the workflows): in the slow stage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScriptedModel, useTool } from '../../../src/activities/models/scripted-model';
import { bundlerOptionsWith, createAgentWorker, WORKFLOWS_PATH, type AgentWorkerOptions } from '../../../src/worker';
import { waitForPending, writeFileTool } from '../../helpers/approval-helpers';
import { PROJECT_ROOT } from '../../helpers/cli-process';
import { SCRIPTED_MODEL } from '../../helpers/scripted-input';
import { createHarness, useTestEnv } from '../../helpers/temporal-env';

const env = useTestEnv();
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };
let stackless: string;

beforeAll(async () => {
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...bundlerOptionsWith({ workflowStackTraces: false }),
    logger: quiet,
  });
  stackless = path.join(PROJECT_ROOT, `.thoughtline/tmp/no-stack-traces-${process.pid}.js`);
  fs.writeFileSync(stackless, code);
}, 180_000);
afterAll(() => fs.rmSync(stackless, { force: true }));

/** A run that waits for an approval on a worker of `bundle`: its stack-trace query while it waits, and its result. */
async function waitingRun(workflowBundlePath: string) {
  const model = createScriptedModel([
    { content: [useTool('write_file', { path: '/tmp/a.txt', text: 'a' }, 'toolu_n1')] },
    { content: [useTool('finish', { result: 'done' })] },
  ]);
  const h = await createHarness(env, { tools: [writeFileTool([])], models: { scripted: model }, workflowBundlePath });
  return h.worker.runUntil(async () => {
    const handle = await h.agents.start({ task: 'Write a file', model: SCRIPTED_MODEL, approvalTimeoutMs: 60_000 });
    await waitForPending(h.agents, handle.workflowId);
    const trace = await h.agents.getHandle(handle.workflowId).query<string>('__stack_trace');
    await h.agents.decide(handle.workflowId, { callId: 'toolu_n1', approved: true, by: { id: 'alice', roles: [] } });
    return { trace, result: await handle.result() };
  });
}

describe('workflowStackTraces: false', () => {
  it("a waiting run's stack trace names no frame, and the run still ends with its answer", async () => {
    const without = await waitingRun(stackless);
    // The query still answers, with a header and no frame for each waiting promise.
    expect(without.trace.trim()).toMatch(/^Error(\s+Error)*$/);
    expect(without.result.success).toBe(true);
    expect(without.result.finalAnswer).toBe('done');
    // With the traces on (the suite's bundle) the same wait names approval-gate.ts: stack-trace.test.ts.
  }, 120_000);

  it('refuses a worker whose runs would take stack traces anyway, saying why', async () => {
    const worker = (more: Partial<AgentWorkerOptions>) =>
      createAgentWorker({
        connection: env.nativeConnection,
        tools: [],
        models: {},
        taskQueue: `no-stack-traces-${Date.now()}`,
        workflowStackTraces: false,
        ...more,
      });
    await expect(worker({ workflowBundle: { codePath: inject('workflowBundlePath') } })).rejects.toThrow(
      /does not preload NO_STACK_TRACES_MODULE.*bundlerOptionsWith\(\{ workflowStackTraces: false \}\)/,
    );
    // A context per run never preloads it either.
    await expect(worker({ workerOptions: { reuseV8Context: false } })).rejects.toThrow(/needs reuseV8Context/);
  });
});
