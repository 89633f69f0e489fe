import { randomUUID } from 'node:crypto';
import { log } from '../lib/engine-io.mjs';
import { answerFor } from '../lib/loop-script.mjs';
import { now } from '../lib/marks.mjs';
import { withServer } from './infra.mjs';
import { startInProcessAgent } from './in-process-agent.mjs';
import { runInput } from './run-input.mjs';
import { ENGINE, version } from './version.mjs';

/**
 * `runs` ingress calls started together, all served by the one endpoint in this process
 * (so `pids` is empty: the server is counted by the runner, or is this script's child).
 */
export function concurrent(request) {
  return withServer(request, async (server) => {
    const agent = await startInProcessAgent(server);
    try {
      const batch = randomUUID();
      const started = now();
      const outputs = await Promise.all(
        Array.from({ length: request.runs }, (_, r) =>
          agent.run(runInput(request, `restate-c${r}-${batch}`, { marked: false })).then(({ output }) => output),
        ),
      );
      const wallMs = now() - started;
      const wrongAnswers = outputs.filter((o) => o?.answer !== answerFor(request.iterations)).length;
      log(`restate concurrent: ${outputs.length} runs in ${wallMs.toFixed(1)} ms, ${wrongAnswers} wrong`);
      if (wrongAnswers > 0) throw new Error(`${wrongAnswers} of ${request.runs} runs answered wrong`);
      return { engine: ENGINE, version: version(), completed: outputs.length, wrongAnswers, wallMs, pids: [] };
    } finally {
      await agent.remove();
    }
  });
}
