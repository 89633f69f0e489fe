import { randomUUID } from 'node:crypto';
import { log } from '../lib/engine-io.mjs';
import { now } from '../lib/marks.mjs';
import { withServer } from './infra.mjs';
import { startInProcessAgent } from './in-process-agent.mjs';
import { checkAnswer, runInput } from './run-input.mjs';
import { ENGINE, version } from './version.mjs';

/** One unmarked warm-up run, then `runs` runs one after another, each timed from the caller. */
export function loop(request) {
  return withServer(request, async (server) => {
    const agent = await startInProcessAgent(server, { marksDir: request.marksDir });
    try {
      const warmupId = `warmup-${randomUUID()}`;
      const warmup = { ...request, iterations: request.warmupIterations ?? request.iterations };
      checkAnswer(warmupId, (await agent.run(runInput(warmup, warmupId, { marked: false }))).output, warmup.iterations);
      const runs = [];
      for (let r = 0; r < request.runs; r++) {
        const id = `restate-${r}-${randomUUID()}`;
        const requestedAt = now();
        const { output } = await agent.run(runInput(request, id));
        const returnedAt = now();
        checkAnswer(id, output, request.iterations);
        runs.push({ id, requestedAt, returnedAt, answer: output.answer, maxInputTokens: output.maxInputTokens });
        log(`restate loop: run ${r + 1}/${request.runs} in ${(returnedAt - requestedAt).toFixed(1)} ms`);
      }
      return { engine: ENGINE, version: version(), runs };
    } finally {
      await agent.remove();
    }
  });
}
