import { randomUUID } from 'node:crypto';
import { openAgent } from './open-agent.mjs';
import { checkRun, startRun } from './run-thread.mjs';
import { storedBytes } from './stored-bytes.mjs';

/** One run, then what the checkpointer keeps for its thread once it has ended. */
export async function stateScenario(request, database) {
  const id = `lg-state-${randomUUID()}`;
  const { graph, close } = await openAgent(database.url, request);
  let run;
  try {
    run = await startRun(graph, id, request);
  } finally {
    await close();
  }
  checkRun(id, run, request.iterations);
  const { bytes, stored } = await storedBytes(database.url, id);
  return { id, answer: run.answer, storedBytes: bytes, stored, maxInputTokens: run.maxInputTokens };
}
