import { randomUUID } from 'node:crypto';
import { log } from '../lib/engine-io.mjs';
import { now } from '../lib/marks.mjs';
import { openAgent } from './open-agent.mjs';
import { checkRun, startRun } from './run-thread.mjs';

/**
 * `runs` threads started at once on one compiled graph in this process (LangGraph has no worker
 * of its own: the caller's process runs the nodes), sharing the saver's pg pool.
 */
export async function concurrentScenario(request, database) {
  const { graph, close } = await openAgent(database.url, request);
  try {
    const started = now();
    const results = await Promise.all(
      Array.from({ length: request.runs }, (_, i) => startRun(graph, `lg-concurrent-${i}-${randomUUID()}`, request)),
    );
    const wallMs = now() - started;
    const wrongAnswers = results.filter((run, i) => !isRight(`concurrent ${i}`, run, request.iterations)).length;
    // No process besides this one runs steps; PostgreSQL is the runner's infrastructure.
    return { completed: results.length, wrongAnswers, wallMs, pids: [] };
  } finally {
    await close();
  }
}

/** A wrong run is counted (the reply says how many) and logged, not thrown. */
function isRight(id, run, iterations) {
  try {
    checkRun(id, run, iterations);
    return true;
  } catch (err) {
    log(err.message);
    return false;
  }
}
