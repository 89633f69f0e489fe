import { z } from 'zod';
import { TokenUsage } from './usage';

/**
 * What a tool of type `llm` returns (the built-in `ask_model`): the answer and what it cost. The
 * workflow reads `usage` and `costUsd` into the run's ledger, so a tool of type `llm` whose result
 * does not parse as this is refused rather than trusted to be free.
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
