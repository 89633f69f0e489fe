/** No agent run has this workflow id (never started, deleted, or past the namespace's retention). */
export class UnknownRunError extends Error {
  override readonly name = 'UnknownRunError';

  constructor(readonly workflowId: string) {
    super(`No agent run with workflow id ${workflowId}: check the id (thoughtline chain ${workflowId}).`);
  }
}
