// The recover scenario: the DBOS app runs the workflow in a child process; when tool step
// `killAt` starts (it sleeps `slowToolMs`), SIGKILL it and start a replacement with the same
// executor id, which, as DBOS's self-hosting docs describe, recovers that executor's pending
// workflows on launch. This process waits for the result as a DBOSClient.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import { log } from '../lib/engine-io.mjs';
import { now } from '../lib/marks.mjs';
import { APP_NAME } from './app.mjs';
import { freshDatabase } from './database.mjs';
import { checkAnswer, newRunId, settingsOf } from './runs.mjs';
import { waitForMark } from './wait-mark.mjs';

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));

function startWorker(options) {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(options)], {
    // The worker's stdout goes to our stderr: our stdout carries only the reply.
    stdio: ['ignore', 2, 2],
  });
  // An exit we did not cause fails the scenario instead of waiting out a timeout.
  child.failure = undefined;
  child.expectedExit = false;
  child.exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      if (!child.expectedExit) child.failure = new Error(`DBOS worker ${child.pid} exited (${code ?? signal})`);
      resolve();
    });
  });
  return child;
}

/** SIGTERM lets the worker shut DBOS down; SIGKILL if that hangs, so no worker outlives us. */
async function stopWorker(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.expectedExit = true;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await child.exited;
  clearTimeout(timer);
}

export async function recover(request) {
  const db = freshDatabase(request.infra.postgresUrl);
  const settings = { ...settingsOf(request), slowAt: request.killAt, slowToolMs: request.slowToolMs };
  const id = newRunId('dbos-recover');
  const executorID = `bench-dbos-${randomBytes(4).toString('hex')}`;
  const app = { systemDatabaseUrl: db.url, executorID, marksDir: request.marksDir };
  const workers = [];
  let client;
  try {
    // Made here, so the client can connect before the first worker launches.
    await DBOS.migrate(db.url);
    client = await DBOSClient.create({ systemDatabaseUrl: db.url, applicationName: APP_NAME });

    const first = startWorker({ ...app, start: { id, settings } });
    workers.push(first);
    await waitForMark(
      request.marksDir,
      id,
      { kind: 'tool', index: request.killAt, phase: 'start' },
      {
        timeoutMs: 60_000 + request.killAt * (settings.modelDelayMs + 100),
        failed: () => first.failure,
      },
    );
    first.expectedExit = true;
    first.kill('SIGKILL');
    const killedAt = now();

    // At once, as a supervisor restarting a crashed app would; same executor id, same code.
    const replacementStartedAt = now();
    const replacement = startWorker(app);
    workers.push(replacement);
    await first.exited;
    log(`dbos recover: killed ${first.pid}, replacement ${replacement.pid}`);

    const result = await Promise.race([
      client.retrieveWorkflow(id).getResult(),
      replacement.exited.then(() => Promise.reject(replacement.failure ?? new Error('replacement exited'))),
    ]);
    checkAnswer(id, result, settings.iterations);
    return { id, answer: result.answer, killedAt, replacementStartedAt };
  } finally {
    for (const w of workers) await stopWorker(w);
    await client?.destroy();
    await db.drop();
  }
}
