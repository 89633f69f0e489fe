import { randomUUID } from 'node:crypto';
import { now } from '../lib/marks.mjs';
import { openAgent } from './open-agent.mjs';
import { checkRun, startRun } from './run-thread.mjs';

/** One unmarked warm-up run, then `runs` runs one after another, each on its own thread. */
export async function loopScenario(request, database) {
  const { graph, close } = await openAgent(database.url, request);
  try {
    const warmup = { ...request, iterations: request.warmupIterations ?? request.iterations };
    const warm = await startRun(graph, `warmup-${randomUUID()}`, warmup);
    checkRun('warmup', warm, warmup.iterations);
    const runs = [];
    for (let i = 0; i < request.runs; i++) {
      const id = `lg-loop-${i}-${randomUUID()}`;
      const requestedAt = now();
      const run = await startRun(graph, id, request);
      const returnedAt = now();
      checkRun(id, run, request.iterations);
      runs.push({ id, requestedAt, returnedAt, answer: run.answer, maxInputTokens: run.maxInputTokens });
    }
    return { runs };
  } finally {
    await close();
  }
}
