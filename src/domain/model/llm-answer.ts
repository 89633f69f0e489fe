import { z } from 'zod';
import { TokenUsage } from './usage';
import { COMPARED_AS } from '../text/answer-equivalence';

/**
 * What a tool of type `llm` returns (the built-in `ask_model`): the answer and what it cost. The
 * workflow reads `usage` and `costUsd` into the run's ledger, so a tool of type `llm` whose result
 * does not parse as this (or as an LlmConsensus) is refused rather than trusted to be free.
 */
export const LlmAnswer = z.object({
  /** The model that actually answered (the provider's id, e.g. `claude-haiku-4-5`). */
  model: z.string(),
  /** The registry name the agent asked for, e.g. `fast`. */
  alias: z.string(),
  answer: z.string(),
  stopReason: z.string(),
  usage: TokenUsage,
  costUsd: z.number().nonnegative(),
  /** The answer was cut to the tool's `maxResultChars`. */
  truncated: z.boolean().optional(),
});
export type LlmAnswer = z.infer<typeof LlmAnswer>;

/** The longest `judgeProblem` a consensus records. */
export const MAX_JUDGE_PROBLEM_CHARS = 300;

/** Most models one consensus call may ask. */
export const MAX_CONSENSUS_MODELS = 5;

/** One model's part of a consensus: its answer, or why it has none (then no usage and no cost). */
export const ConsensusAnswer = z.union([
  LlmAnswer.extend({
    error: z.undefined().optional(),
    /** How long this model took; the chain shows it on the model's own step. */
    durationMs: z.number().nonnegative().optional(),
  }),
  z.object({
    /** The provider's id of the model asked. */
    model: z.string(),
    alias: z.string(),
    error: z.string(),
  }),
]);
export type ConsensusAnswer = z.infer<typeof ConsensusAnswer>;

/**
 * What a consensus compared answers as: see `sameAnswer` in domain/text/answer-equivalence.ts;
 * `judge`: free-text answers the tool's judge model grouped (`createLlmTool({ consensusJudge })`).
 */
export const ComparedAs = z.enum([...COMPARED_AS, 'judge']);
export type ComparedAs = z.infer<typeof ComparedAs>;

/**
 * What `ask_model` returns for `mode: "consensus"`: every model's answer in the order asked, and
 * how far they agree (see `agreementOf` in tools/builtin/llm/agreement.ts). The workflow counts
 * each answer's usage and cost into the run's ledger and records each as its own `llm` step.
 */
export const LlmConsensus = z.object({
  mode: z.literal('consensus'),
  answers: z.array(ConsensusAnswer).min(2).max(MAX_CONSENSUS_MODELS),
  /** Share of the models asked whose answers fall in the largest group of equal answers, 0–1. */
  agreement: z.number().min(0).max(1),
  /** Every model asked answered, and all the same. */
  unanimous: z.boolean(),
  /** The answer of a strict majority of the models asked (as the first of them wrote it); absent without one. */
  majority: z.string().optional(),
  /** Registry names grouped by equal answer, largest group first; failed models are in none. */
  groups: z.array(z.array(z.string())),
  /** Per group, in its order, what its answers were compared as (absent on results recorded before it was kept). */
  groupedBy: z.array(ComparedAs).optional(),
  /** The judge model's call, when one grouped the free-text answers: its reply, tokens and cost (or its error). */
  judge: ConsensusAnswer.optional(),
  /** Why the judge's grouping was not used (a failed call, an unreadable reply): the rules' groups stand. */
  judgeProblem: z.string().max(MAX_JUDGE_PROBLEM_CHARS).optional(),
});
export type LlmConsensus = z.infer<typeof LlmConsensus>;

/** Any result of a tool of type `llm`. */
export const LlmToolResult = z.union([LlmConsensus, LlmAnswer]);
export type LlmToolResult = z.infer<typeof LlmToolResult>;
