// The recover scenario: the app (and so every step) runs in a child process; when the slow
// tool step's start mark appears the child is SIGKILLed and a replacement app process started
// on the same data directory, as the local world documents recovery: on start the world
// re-enqueues the runs it finds pending or running (WORKFLOW_LOCAL_RECOVER_ACTIVE_RUNS,
// default true; docs/deploying/world/local-world.mdx, world-local's start()).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { log } from '../lib/engine-io.mjs';
import { fileName, now } from '../lib/marks.mjs';
import { ensureBundles } from './bundles.mjs';
import { localWorldEnv } from './local-world.mjs';
import { runSettings } from './run-settings.mjs';
import { waitForReturnValue } from './wait-run.mjs';

const appProcess = fileURLToPath(new URL('./app-process.mjs', import.meta.url));

/** Forks an app process; resolves with it once it listens. */
function spawnApp(env) {
  const child = fork(appProcess, [], { env: { ...process.env, ...env }, stdio: ['ignore', 2, 2, 'ipc'] });
  const ready = new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m.ready));
    child.once('exit', (code, signal) =>
      reject(new Error(`app process exited (${code ?? signal}) before it listened`)),
    );
  });
  return { child, ready };
}

/** Resolves when `<marksDir>/<run>.jsonl` holds the given mark. */
async function markSeen(marksDir, runId, kind, index, phase) {
  const file = path.join(marksDir, `${fileName(runId)}.jsonl`);
  for (;;) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    for (const line of text.split('\n')) {
      if (!line) continue;
      const m = JSON.parse(line);
      if (m.kind === kind && m.index === index && m.phase === phase) return;
    }
    await sleep(2);
  }
}

export async function recoverRun(request) {
  const workDir = request.infra.workDir;
  const marksDir = request.marksDir ?? path.join(workDir, 'vercel-workflow-marks');
  const bundles = ensureBundles(workDir);
  // This process runs no app: it only reads the run from the same data directory.
  const worldEnv = localWorldEnv(workDir, marksDir);
  const env = { ...worldEnv, BENCH_APP_ROUTES: bundles.routes, BENCH_APP_WORKFLOW_ID: bundles.workflowId };
  const children = [];
  try {
    const first = spawnApp(env);
    children.push(first.child);
    const port = await first.ready;
    const settings = runSettings(request, {
      marked: true,
      slowAt: request.killAt,
      slowToolMs: request.slowToolMs ?? 0,
    });
    const started = await fetch(`http://127.0.0.1:${port}/runs`, { method: 'POST', body: JSON.stringify(settings) });
    if (!started.ok) throw new Error(`starting the run failed: ${started.status} ${await started.text()}`);
    const { runId } = await started.json();
    log(`vercel-workflow: run ${runId} in app pid ${first.child.pid}; killing it at tool ${request.killAt}`);

    await markSeen(marksDir, runId, 'tool', request.killAt, 'start');
    first.child.kill('SIGKILL');
    const killedAt = now();
    const replacementStartedAt = now();
    const second = spawnApp(env);
    children.push(second.child);
    await second.ready;
    log(
      `vercel-workflow: killed pid ${first.child.pid}, replacement pid ${second.child.pid} up after ${(now() - replacementStartedAt).toFixed(0)} ms`,
    );

    const timeoutMs = 60_000 + (request.slowToolMs ?? 0) + request.iterations * 500;
    try {
      const result = await waitForReturnValue(runId, { timeoutMs });
      return { id: runId, answer: result.answer, killedAt, replacementStartedAt };
    } catch (err) {
      return {
        id: runId,
        answer: null,
        killedAt,
        replacementStartedAt,
        note: `the run did not finish after the replacement started: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    fs.rmSync(worldEnv.WORKFLOW_LOCAL_DATA_DIR, { recursive: true, force: true });
  }
}
