// Starting runs in this process's DBOS app and checking what they return.
import { randomUUID } from 'node:crypto';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { answerFor } from '../lib/loop-script.mjs';
import { now } from '../lib/marks.mjs';
import { agentWorkflow } from './agent.mjs';

export const settingsOf = (request) => ({
  iterations: request.iterations,
  modelDelayMs: request.modelDelayMs ?? 0,
  observationBytes: request.observationBytes ?? 0,
});

export const newRunId = (label) => `${label}-${randomUUID()}`;

/** One run, timed from just before the start call to the answer back here. */
export async function runOnce(id, settings) {
  const requestedAt = now();
  const handle = await DBOS.startWorkflow(agentWorkflow, { workflowID: id })(settings);
  const result = await handle.getResult();
  const returnedAt = now();
  checkAnswer(id, result, settings.iterations);
  return { id, requestedAt, returnedAt, answer: result.answer, maxInputTokens: result.maxInputTokens };
}

export function checkAnswer(id, result, iterations) {
  if (result?.answer !== answerFor(iterations))
    throw new Error(
      `run ${id} answered ${JSON.stringify(result?.answer)}, not ${JSON.stringify(answerFor(iterations))}`,
    );
}
