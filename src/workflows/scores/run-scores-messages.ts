import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { AddRunScoreRequest, AddRunScoreResult, RunScore } from '../../domain/evaluation/run-scores';
import { fnv1a } from '../core/stable-hash';

/** The workflow type of a run's scores (one per scored run). */
export const RUN_SCORES_WORKFLOW = 'runScoresWorkflow';

/**
 * Workflow id of the scores of the run `runWorkflowId`. Characters outside [A-Za-z0-9_.-] (a
 * sub-agent's `/`) become `_`, plus a hash of the raw id so two runs never share one.
 */
export function runScoresWorkflowId(runWorkflowId: string): string {
  const safe = runWorkflowId.replace(/[^A-Za-z0-9_.-]/g, '_');
  if (safe === runWorkflowId && safe.length > 0 && safe.length <= 200) return `thoughtline-scores-${safe}`;
  return `thoughtline-scores-${safe.slice(0, 200)}-${fnv1a(runWorkflowId)}`;
}

/** A run's scores, oldest first, as its scores workflow holds them now. */
export interface RunScoresView {
  runWorkflowId: string;
  scores: RunScore[];
}

/**
 * Adds a score, or replaces the one with the same name by the same person. The validator refuses
 * (nothing reaches history) a payload it cannot read and a new score past the run's limit.
 */
export const addRunScoreUpdate = defineUpdate<AddRunScoreResult, [AddRunScoreRequest]>('addRunScore');
/** The run's scores now. Never throws. */
export const runScoresQuery = defineQuery<RunScoresView>('runScores');
