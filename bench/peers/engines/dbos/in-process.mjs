// The loop, state and concurrent scenarios: this process is the DBOS app.
import { DBOS } from '@dbos-inc/dbos-sdk';
import { now } from '../lib/marks.mjs';
import { agentWorkflow, useMarks } from './agent.mjs';
import { launchApp, shutdownApp } from './app.mjs';
import { freshDatabase } from './database.mjs';
import { checkAnswer, newRunId, runOnce, settingsOf } from './runs.mjs';
import { storedBytes } from './stored-bytes.mjs';

/** Runs `body` with DBOS launched on a fresh database, then shuts down and drops it. */
async function withApp(request, body) {
  const db = freshDatabase(request.infra.postgresUrl);
  useMarks(request.marksDir);
  try {
    await launchApp({ systemDatabaseUrl: db.url });
    try {
      return await body(db);
    } finally {
      await shutdownApp();
    }
  } finally {
    await db.drop();
  }
}

export const loop = (request) =>
  withApp(request, async () => {
    const settings = settingsOf(request);
    await runOnce(
      newRunId('warmup'),
      settingsOf({ ...request, iterations: request.warmupIterations ?? request.iterations }),
    );
    const runs = [];
    for (let i = 0; i < request.runs; i++) runs.push(await runOnce(newRunId(`dbos-${i}`), settings));
    return { runs };
  });

export const state = (request) =>
  withApp(request, async (db) => {
    const run = await runOnce(newRunId('dbos-state'), settingsOf(request));
    const { bytes, stored } = await storedBytes(db.url, run.id);
    return { id: run.id, answer: run.answer, storedBytes: bytes, stored, maxInputTokens: run.maxInputTokens };
  });

export const concurrent = (request) =>
  withApp(request, async () => {
    const settings = settingsOf(request);
    const ids = Array.from({ length: request.runs }, (_, i) => newRunId(`dbos-c${i}`));
    const startedAt = now();
    const handles = await Promise.all(ids.map((id) => DBOS.startWorkflow(agentWorkflow, { workflowID: id })(settings)));
    const results = await Promise.allSettled(handles.map((h) => h.getResult()));
    const wallMs = now() - startedAt;
    let completed = 0;
    let wrongAnswers = 0;
    results.forEach((r, i) => {
      if (r.status !== 'fulfilled') throw r.reason;
      completed++;
      try {
        checkAnswer(ids[i], r.value, settings.iterations);
      } catch {
        wrongAnswers++;
      }
    });
    if (wrongAnswers > 0) throw new Error(`${wrongAnswers} of ${completed} concurrent runs answered wrong`);
    // DBOS runs inside this process: no other process does the engine's work.
    return { completed, wrongAnswers, wallMs, pids: [] };
  });
