import { z } from 'zod';
import type { ReasoningChain } from '../chain';

/**
 * One bar of a run's timeline (waterfall): a model call, a tool call, a wait for a person's
 * approval, or a sub-agent, from its start to its end (still open: `endMs` absent). Times are
 * milliseconds from the chain's start. Calls that overlap get different `lane`s, so parallel calls
 * sit side by side; lane 0 is the first free one.
 */
export const TimelineBar = z.object({
  kind: z.enum(['model', 'tool', 'approval', 'sub_agent']),
  label: z.string(),
  /** The step that opened it (the call), and the one that closed it (the result), if any. */
  stepNumber: z.number().int().nonnegative(),
  endStepNumber: z.number().int().nonnegative().optional(),
  startMs: z.number().nonnegative(),
  endMs: z.number().nonnegative().optional(),
  lane: z.number().int().nonnegative(),
  success: z.boolean().optional(),
  /** A sub-agent's run, to open its own timeline. */
  runId: z.string().optional(),
});
export type TimelineBar = z.infer<typeof TimelineBar>;

export const ChainTimeline = z.object({
  runId: z.string(),
  startedAt: z.string(),
  /** The span the bars cover, ms from `startedAt`. */
  totalMs: z.number().nonnegative(),
  lanes: z.number().int().nonnegative(),
  bars: z.array(TimelineBar),
  /** Bars left out past the limit (the earliest are kept). */
  omitted: z.number().int().nonnegative(),
});
export type ChainTimeline = z.infer<typeof ChainTimeline>;

/** Most bars one timeline carries. */
export const MAX_TIMELINE_BARS = 2_000;

/** The timeline of a chain already in the reader's view. Pure. */
export function chainTimeline(chain: ReasoningChain): ChainTimeline {
  void chain;
  throw new Error('chainTimeline: not built yet (issue 50)');
}
