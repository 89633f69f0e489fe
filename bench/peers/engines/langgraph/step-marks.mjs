import { createMarks } from '../lib/marks.mjs';

/**
 * Step marks for this engine: none when the request has no marksDir (state, concurrent), and
 * none for the warm-up run, whose thread id starts with `warmup` as the contract names it.
 */
export function stepMarks(marksDir) {
  const marks = marksDir ? createMarks(marksDir) : null;
  return {
    mark(runId, kind, index, phase) {
      if (marks && !runId.startsWith('warmup')) marks.mark(runId, kind, index, phase);
    },
  };
}
