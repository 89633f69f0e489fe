import { z } from 'zod';
import { TerminationReason } from '../run/termination';
import { EvalId, type EvalCase } from './eval-case';
import { EvalVariant } from './evaluation-input';

/** Longest `why` a score keeps, so a case's result stays a few hundred bytes. */
export const MAX_SCORE_WHY_CHARS = 200;

/** One scorer's verdict on one run: a value in [0, 1], whether it passed, and why, in words. */
export const Score = z.object({
  scorer: z.string().min(1).max(64),
  value: z.number().min(0).max(1),
  passed: z.boolean(),
  why: z.string().max(MAX_SCORE_WHY_CHARS),
});
export type Score = z.infer<typeof Score>;

/**
 * Seed 003's model times of one run (ModelTimes, cut to what the time targets read): kept only
 * when the variant's own model answered, never for a replayed case, whose recorded replies take
 * no model time.
 */
export const UnitTimes = z.object({
  planningMs: z.number().nonnegative(),
  planningCalls: z.number().int().nonnegative(),
  reasoningPerIterationMs: z.number().nonnegative(),
  reasoningIterations: z.number().int().nonnegative(),
});
export type UnitTimes = z.infer<typeof UnitTimes>;

/**
 * One case × variant × repeat, as the evaluation keeps it: small on purpose; the chain stays in
 * the agent run (`workflowId`). `status`: `scored` the run ended and was scored; `skipped` never
 * started (budget spent, evaluation cancelled); `failed` the run itself failed or was cancelled.
 */
export const CaseResult = z.object({
  caseId: EvalId,
  variant: EvalId,
  repeat: z.number().int().nonnegative(),
  workflowId: z.string(),
  status: z.enum(['scored', 'skipped', 'failed']),
  terminationReason: TerminationReason.optional(),
  iterations: z.number().int().nonnegative().default(0),
  maxIterations: z.number().int().positive().optional(),
  toolCalls: z.number().int().nonnegative().default(0),
  costUsd: z.number().nonnegative().default(0),
  tokens: z.number().int().nonnegative().default(0),
  latencyMs: z.number().nonnegative().default(0),
  /** Absent on results written before issue 79, on replayed cases, and on runs that did not end. */
  times: UnitTimes.optional(),
  scores: z.array(Score).default([]),
  /** Every score passed (and the run was scored). */
  passed: z.boolean(),
  note: z.string().max(MAX_SCORE_WHY_CHARS).optional(),
});
export type CaseResult = z.infer<typeof CaseResult>;

/** A unit's result before anything was scored: `skipped` (never started) or `failed` until its run reports. */
export function unscoredResult(
  unit: Pick<CaseResult, 'caseId' | 'variant' | 'repeat' | 'workflowId' | 'status'> &
    Partial<Pick<CaseResult, 'note' | 'maxIterations'>>,
): CaseResult {
  return { iterations: 0, toolCalls: 0, costUsd: 0, tokens: 0, latencyMs: 0, scores: [], passed: false, ...unit };
}

/** What `evaluationWorkflow` returns: the settings it ran with, and one CaseResult per unit. */
export const EvaluationResult = z.object({
  schemaVersion: z.literal(1),
  name: z.string(),
  dataset: z.object({ name: z.string(), sha256: z.string() }),
  variants: z.array(EvalVariant),
  repeat: z.number().int().positive(),
  /** Case ids in dataset order, with their tags, so a report groups and orders without the dataset. */
  cases: z.array(z.object({ id: EvalId, tags: z.array(z.string()).default([]) })),
  status: z.enum(['completed', 'cancelled', 'budget_spent']),
  startedAt: z.string(),
  endedAt: z.string(),
  spent: z.object({ costUsd: z.number().nonnegative(), tokens: z.number().int().nonnegative() }),
  results: z.array(CaseResult),
  /** The judge's pinned model, when one judged. */
  judge: z.object({ provider: z.string(), model: z.string() }).optional(),
});
export type EvaluationResult = z.infer<typeof EvaluationResult>;

/** What the `evaluationProgress` query returns while it runs. */
export const EvaluationProgress = z.object({
  total: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  running: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  spent: z.object({ costUsd: z.number().nonnegative(), tokens: z.number().int().nonnegative() }),
});
export type EvaluationProgress = z.infer<typeof EvaluationProgress>;

/** The agent run's workflow id for one unit: derived, so a restarted evaluation never starts it twice. */
export function caseWorkflowId(evaluationId: string, c: Pick<EvalCase, 'id'>, variant: string, repeat: number): string {
  return `${evaluationId}/${c.id}/${variant}/${repeat}`;
}
