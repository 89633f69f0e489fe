import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRELOAD_MODULES, WORKFLOW_INTERCEPTOR_MODULES } from '../../../src/worker';
import { PROJECT_ROOT } from '../../helpers/cli-process';
import { patchIds } from '../../helpers/history';
import { useTestEnv } from '../../helpers/temporal-env';
import type { ProbeReport } from './probe-workflows';

const env = useTestEnv();
let preloaded: string;
let plain: string;
let intercepted: string;
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

beforeAll(async () => {
  const bundle = async (name: string, preloadModules: string[], workflowInterceptorModules: string[] = []) => {
    const { code } = await bundleWorkflowCode({
      workflowsPath: path.join(__dirname, 'probe-workflows.ts'),
      preloadModules,
      workflowInterceptorModules,
      logger: quiet,
    });
    const file = path.join(PROJECT_ROOT, `.thoughtline/tmp/preload-probe-${name}-${process.pid}.js`);
    fs.writeFileSync(file, code);
    return file;
  };
  preloaded = await bundle('preloaded', [...PRELOAD_MODULES]);
  plain = await bundle('plain', []);
  intercepted = await bundle('intercepted', [...PRELOAD_MODULES], [...WORKFLOW_INTERCEPTOR_MODULES]);
}, 180_000);
afterAll(() => [preloaded, plain, intercepted].forEach((file) => fs.rmSync(file, { force: true })));

/** Two probe runs, one after the other, in one reusable V8 context (one workflow thread), with the patch markers each run's history holds. */
async function twoRuns(
  codePath: string,
): Promise<[ProbeReport & { markers: string[] }, ProbeReport & { markers: string[] }]> {
  const taskQueue = `preload-${path.basename(codePath)}-${Date.now()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace,
    taskQueue,
    workflowBundle: { codePath },
    reuseV8Context: true,
    workflowThreadPoolSize: 1,
  });
  return worker.runUntil(async () => {
    const run = async (tag: string) => {
      const handle = await env.client.workflow.start('preloadProbe', {
        taskQueue,
        workflowId: `preload-probe-${tag}-${Date.now()}`,
        args: [tag],
      });
      const report = (await handle.result()) as ProbeReport;
      const markers = patchIds(await handle.fetchHistory());
      return { ...report, markers };
    };
    return [await run('first'), await run('second')];
  });
}

describe('the modules preloaded into the shared V8 context', () => {
  it(
    'are shared but closed: a run can leave nothing in them for the next, and their schemas and classes work in every run',
    { timeout: 60_000 },
    async () => {
      const [first, second] = await twoRuns(preloaded);
      const expected = {
        exportsFrozen: true,
        sawBefore: undefined,
        writeRefused: true,
        inputParsed: true,
        badInputRefused: true,
        stepParsed: true,
        nestedWriteRefused: true,
        templateSteps: 7,
        classWorks: true,
      };
      // A shared module that uses the SDK: its workflowInfo() answers for each run, its at-rest queue runs each run's own work.
      const sdk = { sdkModuleFrozen: true, sdkSawThisRun: true, atRestRan: true, markers: [] };
      expect(first).toEqual({ ...expected, ...sdk });
      expect(second).toEqual({ ...expected, ...sdk });
      // With the at-rest interceptor module, each run's queue is its own too.
      const intercept = await twoRuns(intercepted);
      expect(intercept).toEqual([
        { ...expected, ...sdk },
        { ...expected, ...sdk },
      ]);
    },
  );

  it(
    'are what keeps a run from writing into them (without the preload, each run has its own open copy)',
    { timeout: 60_000 },
    async () => {
      const [first, second] = await twoRuns(plain);
      expect(first).toMatchObject({
        exportsFrozen: false,
        sdkModuleFrozen: false,
        writeRefused: false,
        nestedWriteRefused: false,
        templateSteps: 8,
        inputParsed: true,
        classWorks: true,
        atRestRan: true,
      });
      // Its own module scope: the second run does not see the first run's write either.
      expect(second).toMatchObject({
        exportsFrozen: false,
        writeRefused: false,
        nestedWriteRefused: false,
        templateSteps: 8,
      });
      expect([first.sawBefore, second.sawBefore]).toEqual([undefined, undefined]);
    },
  );
});

describe("a run's at-rest work (workflows/core/state/at-rest.ts)", () => {
  it.each([
    { how: "the interceptor module's queue (WORKFLOW_BUNDLER_OPTIONS)", bundle: () => intercepted, shared: true },
    { how: 'its fallback, a condition (a bundle without the module)', bundle: () => preloaded, shared: false },
  ])('goes on after Temporal cancels the run, through $how', { timeout: 60_000 }, async ({ bundle, shared }) => {
    const taskQueue = `at-rest-${Date.now()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace,
      taskQueue,
      workflowBundle: { codePath: bundle() },
    });
    const result = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start('atRestAfterCancel', {
        taskQueue,
        workflowId: `at-rest-after-cancel-${Date.now()}`,
      });
      // Cancelled once it sleeps: its first task is done.
      while ((await handle.fetchHistory()).events!.length < 5) await new Promise((r) => setTimeout(r, 25));
      await handle.cancel();
      return (await handle.result()) as { ran: string[]; shared: boolean };
    });
    expect(result).toEqual({ ran: ['queued before the cancel', 'queued after the cancel'], shared });
  });
});
