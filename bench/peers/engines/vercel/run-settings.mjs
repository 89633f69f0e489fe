// The workflow's input for one run of the shared loop (lib/loop-script.mjs).
import { TOOL_NAME } from '../lib/loop-script.mjs';

/** marked: whether the steps write marks (the loop's warm-up run does not). */
export function runSettings(request, { marked, slowAt, slowToolMs } = {}) {
  return {
    task: `Call ${TOOL_NAME} ${request.iterations} times, then say how many times.`,
    iterations: request.iterations,
    modelDelayMs: request.modelDelayMs ?? 0,
    observationBytes: request.observationBytes ?? 64,
    marked: Boolean(marked),
    ...(slowAt ? { slowAt, slowToolMs } : {}),
  };
}
