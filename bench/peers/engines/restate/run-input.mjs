import { answerFor } from '../lib/loop-script.mjs';

/** The handler's input for one run, from the scenario request. */
export const runInput = (request, runId, { marked = true, ...extra } = {}) => ({
  runId,
  iterations: request.iterations,
  modelDelayMs: request.modelDelayMs ?? 0,
  observationBytes: request.observationBytes ?? 0,
  marked,
  ...extra,
});

/** Every run must return the script's answer word for word. */
export function checkAnswer(runId, output, iterations) {
  if (output?.answer !== answerFor(iterations))
    throw new Error(
      `run ${runId} answered ${JSON.stringify(output?.answer)}, expected ${JSON.stringify(answerFor(iterations))}`,
    );
}
