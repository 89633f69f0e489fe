import { z } from 'zod';
import { AgentId } from '../agents/agent-definition';
import { ModelSettings } from '../model/model-settings';
import { EvalCase, EvalId } from './eval-case';

/** One way to run every case: a model, a registered agent, a strategy (each omitted: the run's default). */
export const EvalVariant = z
  .object({
    id: EvalId,
    model: ModelSettings.optional(),
    agent: AgentId.optional(),
    strategy: z.enum(['native', 'react-text']).optional(),
  })
  .strict();
export type EvalVariant = z.infer<typeof EvalVariant>;

/** The model that judges (a rubric or coherence); pinned: the same model and prompt for every case. */
export const JudgeSettings = z
  .object({
    model: ModelSettings,
    /** What the judge grades against; default: seed 001's reasoning coherence. */
    rubric: z.string().min(1).max(4_000).optional(),
    /** The score at which a run passes; default 0.9 (seed 001: coherent in 90% of steps). */
    passAt: z.number().min(0).max(1).optional(),
  })
  .strict();
export type JudgeSettings = z.infer<typeof JudgeSettings>;

/**
 * Cases × variants × repeats this evaluation may hold: each unit's result is at most 1 KB (a few
 * hundred bytes usually), and the evaluation's result must fit Temporal's 2 MiB per payload;
 * 1,600 worst-case results with their case list do (test/workflows/eval/eval-units.test.ts).
 */
export const MAX_EVAL_UNITS = 1_600;

/** What `thoughtline eval` (or a client) sends to start `evaluationWorkflow`. */
export const EvaluationInput = z
  .object({
    schemaVersion: z.literal(1).default(1),
    /** Shown in the report and the Web UI; default the dataset's file name. */
    name: z.string().min(1).max(200),
    /** Where the cases came from, so a baseline is compared with the same dataset. */
    dataset: z.object({ name: z.string().min(1).max(200), sha256: z.string().min(1).max(128) }),
    cases: z.array(EvalCase).min(1),
    variants: z.array(EvalVariant).min(1).max(20),
    repeat: z.number().int().positive().max(100).default(1),
    /** Agent runs in flight at once, across the whole evaluation. */
    concurrency: z.number().int().positive().max(256).default(4),
    /** One budget for every run: no case starts once it is spent; the rest are `skipped`. */
    budget: z
      .object({ costUsd: z.number().positive().optional(), tokens: z.number().int().positive().optional() })
      .strict()
      .optional(),
    judge: JudgeSettings.optional(),
    /** Worker-registered scorers run on every case. */
    scorers: z.array(z.string().min(1).max(64)).max(20).default([]),
    /** Every agent run's input gets these fields too (a case's own `input` wins). */
    baseInput: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine((e) => e.cases.length * e.variants.length * e.repeat <= MAX_EVAL_UNITS, {
    message: `cases × variants × repeat must be at most ${MAX_EVAL_UNITS}; split the dataset`,
  });
export type EvaluationInput = z.infer<typeof EvaluationInput>;
export type EvaluationInputInit = z.input<typeof EvaluationInput>;
