/** Why a stored run cannot become an evaluation case; one value per reason, stable for scripts and the API. */
export const CaseFromRunRefusal = {
  /** No agent run has this id (or the caller may not see it). */
  NotFound: 'not_found',
  /** The run has not ended: its outcome is not known yet. */
  NotEnded: 'not_ended',
  /** The run's ending cannot be replayed: cancelled by a person, timed out, failed without a result. */
  NotReplayable: 'not_replayable',
  /** The run waited on people (approvals, answers, steering) or sub-agents: a replay has neither. */
  NeedsOthers: 'needs_others',
  /** Part of the run's model calls or tool results is no longer on the Temporal server, or failed. */
  Incomplete: 'incomplete',
  /** A person scored the run as bad: replaying it would pin the bad outcome as the expected one. */
  MarkedBad: 'marked_bad',
  /** Its task, its recording or the dataset with it would pass a limit. */
  TooLarge: 'too_large',
  /** The visibility policy narrows this run even in the auditor's view: a case needs it whole. */
  NotWholeInView: 'not_whole_in_view',
  /** An output guardrail withheld the run's answer: its recording would carry the withheld text. */
  HeldByGuardrail: 'held_by_guardrail',
  /** The dataset already has a case of this run (or a recording of its name). */
  Duplicate: 'duplicate',
} as const;
export type CaseFromRunRefusal = (typeof CaseFromRunRefusal)[keyof typeof CaseFromRunRefusal];

/** A run refused as a case, with the reason's code and a sentence saying what to do. */
export class CaseFromRunError extends Error {
  override readonly name = 'CaseFromRunError';
  constructor(
    readonly refusal: CaseFromRunRefusal,
    readonly runId: string,
    message: string,
  ) {
    super(`${runId}: ${message}`);
  }
}
