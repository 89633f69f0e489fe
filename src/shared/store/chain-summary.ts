import { z } from 'zod';
import type { ReasoningChain } from '../chain';

/** A chain past this many steps gets a warning: read it through filters, search and the summary. */
export const LONG_CHAIN_STEPS = 200;

/**
 * What a chain comes to, for a person who will not read every step: counts by type, each tool
 * with its calls and failures, cost, tokens and time, and the main decisions (plan, task choices,
 * fallbacks, goal checks, approvals, the answer), each naming its step.
 */
export const ChainSummary = z.object({
  runId: z.string(),
  agentName: z.string(),
  task: z.string(),
  status: z.string(),
  steps: z.number().int().nonnegative(),
  byType: z.object({
    thinking: z.number().int().nonnegative(),
    tool_call: z.number().int().nonnegative(),
    tool_result: z.number().int().nonnegative(),
    synthesis: z.number().int().nonnegative(),
  }),
  tools: z.array(
    z.object({
      name: z.string(),
      calls: z.number().int().nonnegative(),
      failures: z.number().int().nonnegative(),
      totalMs: z.number().nonnegative(),
    }),
  ),
  modelCalls: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  /** From the first step's timestamp to the last's. */
  durationMs: z.number().nonnegative(),
  decisions: z
    .array(
      z.object({
        stepNumber: z.number().int().nonnegative(),
        kind: z.enum(['plan', 'task_choice', 'fallback', 'goal_check', 'approval', 'sub_agent', 'answer']),
        text: z.string(),
      }),
    )
    .max(50),
  /** Set past LONG_CHAIN_STEPS: say so, and point at filters and search. */
  longChain: z.object({ steps: z.number().int(), advice: z.string() }).optional(),
});
export type ChainSummary = z.infer<typeof ChainSummary>;

/**
 * The summary of a chain already in the reader's view (so it shows only what that view shows).
 * Pure. Decisions are cut to their first 200 characters; at most 50 are kept, the latest last.
 */
export function summariseChain(chain: ReasoningChain): ChainSummary {
  void chain;
  throw new Error('summariseChain: not built yet (issue 50)');
}
