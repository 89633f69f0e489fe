import { randomUUID } from 'node:crypto';
import { log } from '../lib/engine-io.mjs';
import { now } from '../lib/marks.mjs';
import { bundleToFile } from './bundle.mjs';
import { spawnWorker, stopWorker } from './child-worker.mjs';
import { checkAnswer, startRun } from './run.mjs';
import { waitForMark } from './wait-for-mark.mjs';

/**
 * One run whose worker is killed mid-tool: worker A (a child process) runs until tool step
 * `killAt` starts (it sleeps slowToolMs, heartbeating), then A is SIGKILLed and worker B starts on
 * the same task queue, as Temporal's answer to a lost worker is another worker. The server retries
 * the tool once its heartbeat timeout (5 s) passes; the client here waits for the answer.
 */
export async function recoverRun({ engine, client, temporal, taskQueue, config, request, bundleFile }) {
  await bundleToFile({ workerModule: engine.workerModule, config, file: bundleFile });
  const spec = { workerModule: engine.workerModule, temporal, taskQueue, config, bundlePath: bundleFile };
  const workers = [spawnWorker(spec)];
  const stopWaiting = new AbortController();
  try {
    const id = `recover-${randomUUID()}`;
    const { handle } = await startRun({ engine, client, taskQueue }, id, request.iterations);
    const result = handle.result();
    result.then(
      () => stopWaiting.abort(),
      () => stopWaiting.abort(),
    );
    const mark = { kind: 'tool', index: request.killAt, phase: 'start' };
    if (!(await waitForMark(config.marksDir, id, mark, stopWaiting.signal))) {
      await result; // throws the run's failure, if that is why it ended
      throw new Error(`run ${id} ended before tool ${request.killAt} started`);
    }

    workers[0].kill('SIGKILL');
    const killedAt = now();
    workers.push(spawnWorker(spec));
    const replacementStartedAt = now();
    log(`${engine.name}: killed worker ${workers[0].pid} at tool ${request.killAt}, replacement ${workers[1].pid}`);

    const { answer } = await result;
    checkAnswer(id, answer, request.iterations);
    return { id, answer, killedAt, replacementStartedAt };
  } finally {
    stopWaiting.abort();
    await Promise.all(workers.map(stopWorker));
  }
}
