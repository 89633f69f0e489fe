import { z } from 'zod';
import { MAX_TASK_BYTES, utf8Bytes } from '../run/payload-size';
import { TerminationReason } from '../run/termination';
import { AnswerGrounding } from '../chain/answer-grounding';

/** A case or variant id: letters, digits, `-`, `_`, `.`, at most 64; it becomes part of workflow ids. */
export const EvalId = z
  .string()
  .min(1)
  .max(64)
  .refine((id) => [...id].every((ch) => isIdChar(ch)), {
    message: 'use letters, digits, "-", "_" and "." only (it becomes part of workflow ids)',
  });

function isIdChar(ch: string): boolean {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || '-_.'.includes(ch);
}

/** How the final answer is checked. `regex` runs RE2 (linear time), never a backtracking engine. */
export const AnswerExpectation = z.discriminatedUnion('match', [
  z.object({ match: z.literal('exact'), value: z.string(), ignoreCase: z.boolean().default(false) }),
  /** Every one of the values appears in the answer. */
  z.object({
    match: z.literal('contains'),
    value: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    ignoreCase: z.boolean().default(true),
  }),
  z.object({
    match: z.literal('regex'),
    pattern: z.string().min(1).max(1_000),
    ignoreCase: z.boolean().default(false),
  }),
  /** The answer (or `AgentResult.output`) is JSON containing this value: objects by subset, arrays and scalars equal. */
  z.object({ match: z.literal('json_subset'), value: z.unknown() }),
  /** The first number in the answer is within `tolerance` of `value` (absolute; `relative` makes it a share of value). */
  z.object({
    match: z.literal('numeric'),
    value: z.number(),
    tolerance: z.number().nonnegative().default(0),
    relative: z.boolean().default(false),
  }),
]);
export type AnswerExpectation = z.infer<typeof AnswerExpectation>;

/** A check on one argument of an expected tool call. Exactly one key. */
export const ArgumentPredicate = z.union([
  z.object({ equals: z.unknown() }).strict(),
  z.object({ contains: z.string() }).strict(),
  z.object({ regex: z.string().min(1).max(1_000) }).strict(),
  z.object({ oneOf: z.array(z.unknown()).min(1) }).strict(),
  z.object({ range: z.object({ min: z.number().optional(), max: z.number().optional() }) }).strict(),
  z.object({ present: z.boolean() }).strict(),
]);
export type ArgumentPredicate = z.infer<typeof ArgumentPredicate>;

/** A tool call the run should make; `arguments` checks the named arguments only (by top-level name). */
export const ExpectedToolCall = z.object({
  tool: z.string().min(1),
  arguments: z.record(z.string(), ArgumentPredicate).optional(),
});
export type ExpectedToolCall = z.infer<typeof ExpectedToolCall>;

/**
 * The tool calls made (the model's own, not `llm` steps, not finish/give_up), compared with the
 * expected ones: `exact` the same calls in the same order and nothing else; `in_order` the expected
 * ones in this order, others may come between; `any_order` every expected one, in any order, others
 * allowed; `subset` every call made is one of the expected ones (nothing outside the list).
 */
export const TrajectoryExpectation = z.object({
  mode: z.enum(['exact', 'in_order', 'any_order', 'subset']),
  calls: z.array(ExpectedToolCall).max(100),
});
export type TrajectoryExpectation = z.infer<typeof TrajectoryExpectation>;

/** What a case expects; each field present becomes one deterministic score. */
export const CaseExpectation = z
  .object({
    answer: AnswerExpectation.optional(),
    /** One reason, or any of several. */
    terminationReason: z.union([TerminationReason, z.array(TerminationReason).min(1)]).optional(),
    tools: TrajectoryExpectation.optional(),
    /** Tools the run must never call (a call is refused or not, it counts). */
    forbiddenTools: z.array(z.string().min(1)).max(100).optional(),
    /** After a failed tool call, the run still ends with `success`. */
    recovers: z.boolean().optional(),
    /** Iterations used as a share of the maximum must stay at or under this (seed 001: under 0.5). */
    maxIterationShare: z.number().positive().max(1).optional(),
    maxLatencyMs: z.number().positive().optional(),
    maxCostUsd: z.number().nonnegative().optional(),
    /** How the run judges its answer (docs/concepts.md, "Grounded answers"): one value, or any of several. */
    grounding: z.union([AnswerGrounding, z.array(AnswerGrounding).min(1)]).optional(),
    /** A planned run's first choice among ready tasks started this task (and, when given, was made by the model or by plan order). */
    taskChoice: z
      .object({ taskId: z.string().min(1).max(64), chosenBy: z.enum(['model', 'plan_order']).optional() })
      .strict()
      .optional(),
    /**
     * The run's first consensus (`ask_model` with `mode: "consensus"`): whether its models agreed
     * (`unanimous`) and at least what share of them (`minAgreement`, 0–1).
     */
    consensus: z
      .object({ unanimous: z.boolean().optional(), minAgreement: z.number().min(0).max(1).optional() })
      .strict()
      .optional(),
    /** The `coherence` score (always given) passes at this share; default 0.9 (seed 001 §6); 0 lets every run pass it. */
    minCoherence: z.number().min(0).max(1).optional(),
  })
  .strict();
export type CaseExpectation = z.infer<typeof CaseExpectation>;

/** Per-case limits; each becomes the run's own input field. */
export const CaseLimits = z
  .object({
    maxIterations: z.number().int().positive().max(1_000).optional(),
    tokenBudget: z.number().int().positive().optional(),
    costBudgetUsd: z.number().positive().optional(),
    runTimeoutMs: z.number().int().positive().optional(),
  })
  .strict();
export type CaseLimits = z.infer<typeof CaseLimits>;

/**
 * At most this much task and context text per case. The whole evaluation input must still fit one
 * Temporal payload: `thoughtline eval` measures it and refuses a dataset too large, to be split.
 */
export const MAX_CASE_TEXT_BYTES = 16 * 1024;

const caseText = (what: string) =>
  z.string().refine((text) => utf8Bytes(text) <= Math.min(MAX_CASE_TEXT_BYTES, MAX_TASK_BYTES), {
    message: `The ${what} of a case must be at most ${MAX_CASE_TEXT_BYTES} bytes (UTF-8).`,
  });

/** One line of a dataset. */
export const EvalCase = z
  .object({
    id: EvalId,
    task: caseText('task').pipe(z.string().min(1)),
    /** Background the agent reads before the task (put before it in the run's task text). */
    context: caseText('context').optional(),
    expect: CaseExpectation.default({}),
    limits: CaseLimits.optional(),
    /**
     * More of the run's input (AgentInput fields such as `tools`, `approvals`, `agents`,
     * `allowQuestions`, `outputSchema`), checked against AgentInput when the dataset is loaded.
     */
    input: z.record(z.string(), z.unknown()).optional(),
    /** Replay the model replies and tool results of this recording (`run --record` file, relative to the dataset) instead of calling them. */
    replay: z.string().min(1).max(1_000).optional(),
    /** Worker-registered scorers (and `judge`) to run on this case besides the evaluation's own. */
    scorers: z.array(z.string().min(1).max(64)).max(20).optional(),
    tags: z.array(z.string().min(1).max(64)).max(20).default([]),
  })
  .strict();
export type EvalCase = z.infer<typeof EvalCase>;
export type EvalCaseInit = z.input<typeof EvalCase>;
