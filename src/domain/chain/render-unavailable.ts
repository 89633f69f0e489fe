import type { ReasoningChain } from './chain';

/** The line that says which first steps a chain lacks, because their Temporal run is gone from the server. */
export function renderUnavailable({ runId, throughStep }: NonNullable<ReasoningChain['unavailable']>): string {
  return `Steps 1–${throughStep} are no longer on the Temporal server: run ${runId}, which held them, is past the namespace's retention or deleted.`;
}
