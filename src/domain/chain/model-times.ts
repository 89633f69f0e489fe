import { z } from 'zod';
import type { ReasoningStep } from './chain';

/**
 * Seed 003's planning time and reasoning time per iteration, read from what the chain already
 * keeps: each `llm` call step's `arguments.purpose`, and the `durationMs` its model activity
 * measured on the result step. No clock is read. Pure.
 */

/**
 * What a model call is for: the loop's own turn, the planner (plan, repair, re-plan), a reflection,
 * a verdict (observer, goal check), a summary of a large result, a summary of the turns compaction
 * drops.
 */
export type ModelCallPurpose = 'turn' | 'plan' | 'reflection' | 'verdict' | 'summary' | 'compaction';

/** The planner's notes on chains recorded before calls had a purpose (planner.ts's labels). */
const PLANNER_NOTES: ReadonlySet<string> = new Set(['plan', 'plan repair', 'replan', 'replan repair']);

export const ModelTimes = z.object({
  /** The planner's calls: the plan, its repair, re-plans. */
  planningMs: z.number().nonnegative(),
  planningCalls: z.number().int().nonnegative(),
  /** The loop's own turns (retries and fallbacks within a turn included). */
  reasoningMs: z.number().nonnegative(),
  /** Iterations with at least one turn call whose reply is in. */
  reasoningIterations: z.number().int().nonnegative(),
  /** reasoningMs over reasoningIterations, rounded; 0 without one. */
  reasoningPerIterationMs: z.number().nonnegative(),
  /** The longest iteration's reasoning. */
  slowestIterationMs: z.number().nonnegative(),
});
export type ModelTimes = z.infer<typeof ModelTimes>;

/**
 * The purpose a run's own `llm` call step records, or the one its note implies on older chains
 * (no note: a turn). Undefined for calls the run did not make itself (a model tool such as
 * `ask_model`, a consensus answer), told apart by the arguments only the run's calls record.
 */
export function callPurpose(args: Readonly<Record<string, unknown>>): ModelCallPurpose | undefined {
  if (typeof args['messages'] !== 'number' || typeof args['toolChoice'] !== 'string') return undefined;
  const purpose = args['purpose'];
  if (typeof purpose === 'string') return purpose as ModelCallPurpose;
  const note = args['note'];
  if (note === undefined) return 'turn';
  if (typeof note === 'string' && PLANNER_NOTES.has(note)) return 'plan';
  // A turn's retry or fallback ("fallback from …", "max_tokens …") is told apart only by purpose.
  return undefined;
}

/** The most a tally's total or count reaches, so it stays an exact number however long the run goes. */
export const MAX_TALLY = Number.MAX_SAFE_INTEGER;
const ms = z.number().nonnegative().max(MAX_TALLY);
const calls = z.number().int().nonnegative().max(MAX_TALLY);

/**
 * Running totals of the same figures, kept in the run state the run carries over when it
 * continues as new (the chain it carries is only a tail). Bounded numbers, as many as the fields.
 */
export const ModelTimeTally = z.object({
  planningMs: ms,
  planningCalls: calls,
  reasoningMs: ms,
  reasoningIterations: calls,
  slowestIterationMs: ms,
  /** The iteration whose turn calls were added last, and their sum: a retry joins its iteration. */
  lastIteration: calls,
  lastIterationMs: ms,
});
export type ModelTimeTally = z.infer<typeof ModelTimeTally>;

export const EMPTY_TALLY: Readonly<ModelTimeTally> = {
  planningMs: 0,
  planningCalls: 0,
  reasoningMs: 0,
  reasoningIterations: 0,
  slowestIterationMs: 0,
  lastIteration: 0,
  lastIterationMs: 0,
};

/** `a + b`, no higher than MAX_TALLY. */
const capped = (a: number, b: number): number => Math.min(MAX_TALLY, a + b);

/**
 * `tally` with one model call's reply added: `ms` as its activity measured it (anything not a
 * finite number of milliseconds at least 0 counts 0), in the chain's `iteration`. Only the
 * planner's calls and the loop's turns count; other purposes leave it as it was. Pure.
 */
export function tallyModelTime(
  tally: Readonly<ModelTimeTally>,
  purpose: ModelCallPurpose | undefined,
  iteration: number,
  ms: number,
): Readonly<ModelTimeTally> {
  const took = Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_TALLY) : 0;
  if (purpose === 'plan')
    return { ...tally, planningMs: capped(tally.planningMs, took), planningCalls: capped(tally.planningCalls, 1) };
  if (purpose !== 'turn') return tally;
  const same = tally.reasoningIterations > 0 && tally.lastIteration === iteration;
  const lastIterationMs = capped(same ? tally.lastIterationMs : 0, took);
  return {
    ...tally,
    reasoningMs: capped(tally.reasoningMs, took),
    reasoningIterations: same ? tally.reasoningIterations : capped(tally.reasoningIterations, 1),
    slowestIterationMs: Math.max(tally.slowestIterationMs, lastIterationMs),
    lastIteration: Math.max(0, Math.trunc(iteration)),
    lastIterationMs,
  };
}

/** The figures a tally stands for. */
export function timesOfTally(tally: Readonly<ModelTimeTally>): ModelTimes {
  const { planningMs, planningCalls, reasoningMs, reasoningIterations, slowestIterationMs } = tally;
  return {
    planningMs,
    planningCalls,
    reasoningMs,
    reasoningIterations,
    reasoningPerIterationMs: reasoningIterations > 0 ? Math.round(reasoningMs / reasoningIterations) : 0,
    slowestIterationMs,
  };
}

/** Planning and reasoning times of `steps`; a call still waiting for its reply counts nothing. */
export function modelTimes(steps: readonly ReasoningStep[]): ModelTimes {
  const purposes = new Map<string, ModelCallPurpose | undefined>();
  let tally = EMPTY_TALLY;
  for (const step of steps) {
    if (step.type === 'tool_call' && step.toolCall.toolType === 'llm')
      purposes.set(step.toolCall.correlationId, callPurpose(step.toolCall.arguments));
    if (step.type !== 'tool_result' || !purposes.has(step.toolResult.correlationId)) continue;
    tally = tallyModelTime(
      tally,
      purposes.get(step.toolResult.correlationId),
      step.iteration,
      step.toolResult.durationMs,
    );
  }
  return timesOfTally(tally);
}
