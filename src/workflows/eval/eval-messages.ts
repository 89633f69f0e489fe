import { defineQuery } from '@temporalio/workflow';
import type { EvaluationProgress } from '../../domain/evaluation/case-result';

/** The workflow type a client starts to run an evaluation (`thoughtline eval`, docs/evaluation.md). */
export const EVALUATION_WORKFLOW = 'evaluationWorkflow';

/** How far an evaluation has come: units done, running, skipped, passed, and what they spent. Never throws. */
export const evaluationProgressQuery = defineQuery<EvaluationProgress>('evaluationProgress');
