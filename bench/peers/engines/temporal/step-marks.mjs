import { Context } from '@temporalio/activity';
import { createMarks } from '../lib/marks.mjs';

/**
 * The mark writer for one worker's step bodies. The run is the workflow id, read from the activity
 * context: it stays the same across continue-as-new and retries, so one run's marks share one file.
 * No marksDir (state, concurrent) or a warm-up run (id `warmup…`) leaves no marks.
 */
export function createStepMarks(marksDir) {
  const marks = marksDir ? createMarks(marksDir) : undefined;
  return (kind, index, phase) => {
    const runId = Context.current().info.workflowExecution.workflowId;
    if (marks && !runId.startsWith('warmup')) marks.mark(runId, kind, index, phase);
  };
}
