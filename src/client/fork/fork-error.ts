/** A fork that cannot start: the step does not exist, nothing follows it, or the original cannot be read. Nothing was started. */
export class ForkError extends Error {
  override readonly name = 'ForkError';
}

/**
 * Why a run whose first steps are gone from the server cannot be forked: a fork starts from the
 * run's first input and the conversation up to its step, and the first Temporal runs held them.
 */
export function forkOfGoneStepsRefused(
  workflowId: string,
  { runId, throughStep }: { runId: string; throughStep: number },
): string {
  return `Cannot fork ${workflowId}: steps 1–${throughStep} are no longer on the Temporal server (run ${runId} is past the namespace's retention or deleted), and a fork starts from the run's first input.`;
}
