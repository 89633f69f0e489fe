import { z } from 'zod';
import type { ReasoningStep } from './chain';

/**
 * Seed 003's planning time and reasoning time per iteration, read from what the chain already
 * keeps: each `llm` call step's `arguments.purpose`, and the `durationMs` its model activity
 * measured on the result step. No clock is read. Pure.
 */

/** What a model call is for: the loop's own turn, the planner (plan, repair, re-plan), a reflection, a verdict (observer, goal check), a summary. */
export type ModelCallPurpose = 'turn' | 'plan' | 'reflection' | 'verdict' | 'summary';

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

/** Planning and reasoning times of `steps`; a call still waiting for its reply counts nothing. */
export function modelTimes(steps: readonly ReasoningStep[]): ModelTimes {
  const purposes = new Map<string, ModelCallPurpose | undefined>();
  const byIteration = new Map<number, number>();
  let planningMs = 0;
  let planningCalls = 0;
  for (const step of steps) {
    if (step.type === 'tool_call' && step.toolCall.toolType === 'llm')
      purposes.set(step.toolCall.correlationId, callPurpose(step.toolCall.arguments));
    if (step.type !== 'tool_result' || !purposes.has(step.toolResult.correlationId)) continue;
    const purpose = purposes.get(step.toolResult.correlationId);
    const ms = Math.max(0, step.toolResult.durationMs);
    if (purpose === 'plan') {
      planningMs += ms;
      planningCalls += 1;
    } else if (purpose === 'turn') byIteration.set(step.iteration, (byIteration.get(step.iteration) ?? 0) + ms);
  }
  const perIteration = [...byIteration.values()];
  const reasoningMs = perIteration.reduce((a, b) => a + b, 0);
  return {
    planningMs,
    planningCalls,
    reasoningMs,
    reasoningIterations: perIteration.length,
    reasoningPerIterationMs: perIteration.length > 0 ? Math.round(reasoningMs / perIteration.length) : 0,
    slowestIterationMs: perIteration.length > 0 ? Math.max(...perIteration) : 0,
  };
}
