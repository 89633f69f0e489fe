// Vercel's Workflow SDK on its local world: the shared ReAct loop as a "use workflow" function
// with a "use step" per model call and per tool call (vercel/workflows/agent-loop.mjs), built by
// the SDK's builder into flow and step bundles, served by a plain node:http app that the local
// world's queue calls. The app runs in this process but for `recover`, whose app is a child.
import fs from 'node:fs';
import { start } from 'workflow/api';
import { now } from './lib/marks.mjs';
import { answerFor } from './lib/loop-script.mjs';
import { log, main, versionOf } from './lib/engine-io.mjs';
import { startApp } from './vercel/app.mjs';
import { ensureBundles } from './vercel/bundles.mjs';
import { localWorldEnv } from './vercel/local-world.mjs';
import { recoverRun } from './vercel/recover.mjs';
import { runSettings } from './vercel/run-settings.mjs';
import { storedBytesOf } from './vercel/stored-bytes.mjs';
import { waitForReturnValue } from './vercel/wait-run.mjs';

const ENGINE = 'vercel-workflow';
const version = `${versionOf('workflow')}, ${versionOf('@workflow/world-local')}`;

function check(answer, iterations, id) {
  const expected = answerFor(iterations);
  if (answer !== expected)
    throw new Error(`run ${id} answered ${JSON.stringify(answer)}, not ${JSON.stringify(expected)}`);
}

/** The app in this process on a fresh local world, for the length of `fn`. */
async function withApp(request, fn) {
  const bundles = ensureBundles(request.infra.workDir);
  const env = localWorldEnv(request.infra.workDir, request.marksDir);
  const app = await startApp({ routes: bundles.routes, workflowId: bundles.workflowId });
  log(`${ENGINE}: app on port ${app.port}, data in ${env.WORKFLOW_LOCAL_DATA_DIR}`);
  try {
    return await fn({ workflowId: bundles.workflowId, dataDir: env.WORKFLOW_LOCAL_DATA_DIR });
  } finally {
    await app.close();
    fs.rmSync(env.WORKFLOW_LOCAL_DATA_DIR, { recursive: true, force: true });
  }
}

/** One run, started the way an app route starts one (start() with the workflow's id). */
async function runOnce(workflowId, settings) {
  const requestedAt = now();
  const run = await start({ workflowId }, [settings]);
  const result = await waitForReturnValue(run.runId);
  const returnedAt = now();
  return { id: run.runId, requestedAt, returnedAt, answer: result.answer, maxInputTokens: result.maxInputTokens };
}

await main({
  async loop(request) {
    return withApp(request, async ({ workflowId }) => {
      const warmup = { ...request, iterations: request.warmupIterations ?? request.iterations };
      await runOnce(workflowId, runSettings(warmup, { marked: false })); // warm-up, unmarked
      const runs = [];
      for (let i = 0; i < (request.runs ?? 1); i++) {
        const run = await runOnce(workflowId, runSettings(request, { marked: true }));
        check(run.answer, request.iterations, run.id);
        runs.push(run);
      }
      return { engine: ENGINE, version, runs };
    });
  },

  async state(request) {
    return withApp(request, async ({ workflowId, dataDir }) => {
      const run = await runOnce(workflowId, runSettings(request, { marked: Boolean(request.marksDir) }));
      check(run.answer, request.iterations, run.id);
      const { bytes, stored } = storedBytesOf(dataDir, run.id);
      return {
        engine: ENGINE,
        version,
        id: run.id,
        answer: run.answer,
        storedBytes: bytes,
        stored,
        maxInputTokens: run.maxInputTokens,
      };
    });
  },

  async recover(request) {
    const result = await recoverRun(request);
    if (result.answer !== null) check(result.answer, request.iterations, result.id);
    return { engine: ENGINE, version, ...result };
  },

  async concurrent(request) {
    return withApp(request, async ({ workflowId }) => {
      const started = now();
      const results = await Promise.all(
        Array.from({ length: request.runs ?? 1 }, () =>
          runOnce(workflowId, runSettings(request, { marked: Boolean(request.marksDir) })),
        ),
      );
      const wallMs = now() - started;
      // check() throws on a wrong answer, so a reply never counts one.
      for (const r of results) check(r.answer, request.iterations, r.id);
      // The app, its queue and its steps all run in this process.
      return { engine: ENGINE, version, completed: results.length, wrongAnswers: 0, wallMs, pids: [] };
    });
  },
});
