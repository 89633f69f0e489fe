import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { answerFor } from '../lib/loop-script.mjs';
import { log } from '../lib/engine-io.mjs';
import { now } from '../lib/marks.mjs';
import { historyBytes } from './history-size.mjs';
import { createWorker } from './worker.mjs';
import { recoverRun } from './recover.mjs';
import { connectClient, runOnce, taskQueueFor } from './run.mjs';

/**
 * The four scenarios for a Temporal engine, described by `engine`: { name, version, workflowType,
 * workerModule (URL of a module exporting workerOptions(config)), and optionally clientPlugins(config)
 * for an integration installed on the client as well as the worker }. Each engine's workflow takes
 * { task, iterations } and returns { answer, maxInputTokens }. Worker and client share this process,
 * except in recover, where the worker is a child process.
 */
export function temporalScenarios(engine) {
  return {
    async loop(request) {
      return withWorker(engine, request, workerConfig(request), async (session) => {
        await runOnce(session, `warmup-${randomUUID()}`, request.warmupIterations ?? request.iterations);
        const runs = [];
        for (let i = 0; i < request.runs; i++) {
          const { id, requestedAt, returnedAt, answer, maxInputTokens } = await runOnce(
            session,
            `run-${i}-${randomUUID()}`,
            request.iterations,
          );
          runs.push({ id, requestedAt, returnedAt, answer, maxInputTokens });
        }
        return { engine: engine.name, version: engine.version, runs };
      });
    },

    async state(request) {
      return withWorker(engine, request, workerConfig(request), async (session) => {
        const run = await runOnce(session, `state-${randomUUID()}`, request.iterations);
        const { bytes, runs } = await historyBytes(session.client, run.id, run.firstRunId);
        return {
          engine: engine.name,
          version: engine.version,
          id: run.id,
          answer: run.answer,
          storedBytes: bytes,
          stored: `workflow history bytes (describe historySizeBytes) summed over ${runs} run(s) of the workflow id, continue-as-new included`,
          maxInputTokens: run.maxInputTokens,
        };
      });
    },

    async recover(request) {
      const { temporal, workDir } = request.infra;
      await mkdir(workDir, { recursive: true });
      const client = await connectClient(temporal, engine.clientPlugins?.(workerConfig(request)));
      try {
        const result = await recoverRun({
          engine,
          client,
          temporal,
          taskQueue: taskQueueFor(engine),
          config: workerConfig(request),
          request,
          bundleFile: path.join(workDir, `${engine.name}-workflow-bundle-${randomUUID()}.js`),
        });
        return { engine: engine.name, version: engine.version, ...result };
      } finally {
        await client.connection.close();
      }
    },

    async concurrent(request) {
      return withWorker(engine, request, workerConfig(request), async (session) => {
        const ids = Array.from({ length: request.runs }, (_, i) => `concurrent-${i}-${randomUUID()}`);
        const startedAt = now();
        const settled = await Promise.allSettled(ids.map((id) => runOnce(session, id, request.iterations, false)));
        const wallMs = now() - startedAt;
        const failed = settled.filter((s) => s.status === 'rejected');
        for (const f of failed.slice(0, 3)) log(`concurrent run failed: ${f.reason?.stack ?? f.reason}`);
        const answers = settled.filter((s) => s.status === 'fulfilled').map((s) => s.value.answer);
        const wrongAnswers = answers.filter((a) => a !== answerFor(request.iterations)).length;
        // The worker runs in this process: no other process does the engine's work.
        return {
          engine: engine.name,
          version: engine.version,
          completed: answers.length,
          wrongAnswers,
          wallMs,
          pids: [],
        };
      });
    },
  };
}

/** The worker's share of the request; the run's own input is only the task and its length. */
function workerConfig(request) {
  return {
    marksDir: request.marksDir,
    modelDelayMs: request.modelDelayMs ?? 0,
    observationBytes: request.observationBytes ?? 0,
    killAt: request.killAt,
    slowToolMs: request.slowToolMs ?? 0,
  };
}

/** Worker and client in this process for the scenario's duration. */
async function withWorker(engine, request, config, body) {
  const { temporal } = request.infra;
  const taskQueue = taskQueueFor(engine);
  const { worker, connection } = await createWorker({ workerModule: engine.workerModule, temporal, taskQueue, config });
  const client = await connectClient(temporal, engine.clientPlugins?.(config));
  try {
    return await worker.runUntil(body({ engine, client, taskQueue }));
  } finally {
    await client.connection.close();
    await connection.close();
  }
}
