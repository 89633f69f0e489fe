import type { ReasoningStep, TokenUsage } from '../../domain';

/** What a stop predicate may look at, after each iteration's observations. Never holds I/O. */
export interface LoopView {
  /** ReAct iterations so far (model turns that the loop acted on). */
  iteration: number;
  /** This Temporal run's steps: after continue-as-new, a long run carries only its latest ones. */
  steps: readonly ReasoningStep[];
  /** Every step the run has recorded, earlier Temporal runs' included. */
  stepCount: number;
  usage: TokenUsage;
  costUsd: number;
  /** Tool calls the model made in the iteration just finished. */
  lastToolCalls: readonly { name: string; arguments: Record<string, unknown> }[];
}

/**
 * A named predicate a user composes in their own workflow (`runAgent(input, { stopWhen })`):
 * when it holds, the run ends with reason `custom` and a summary.
 */
export interface StopPredicate {
  name: string;
  test(view: LoopView): boolean;
}

/** The chain holds at least `n` steps. */
export const isStepCount = (n: number): StopPredicate => ({
  name: `isStepCount(${n})`,
  test: (v) => v.stepCount >= n,
});

/** At least `n` ReAct iterations have run. */
export const isIterationCount = (n: number): StopPredicate => ({
  name: `isIterationCount(${n})`,
  test: (v) => v.iteration >= n,
});

/** The last iteration called `toolName` (optionally with arguments this test accepts). */
export const hasToolCall = (toolName: string, args?: (a: Record<string, unknown>) => boolean): StopPredicate => ({
  name: `hasToolCall(${toolName})`,
  test: (v) => v.lastToolCalls.some((c) => c.name === toolName && (!args || args(c.arguments))),
});

/** Some successful observation's text matches `pattern`. */
export const hasObservationMatching = (pattern: RegExp): StopPredicate => ({
  name: `hasObservationMatching(${pattern})`,
  test: (v) =>
    v.steps.some(
      (s) =>
        s.type === 'tool_result' &&
        s.model === undefined &&
        s.toolResult.success &&
        pattern.test(JSON.stringify(s.toolResult.result)),
    ),
});

/** Any of the predicates. */
export const anyOf = (...predicates: StopPredicate[]): StopPredicate => ({
  name: `anyOf(${predicates.map((p) => p.name).join(', ')})`,
  test: (v) => predicates.some((p) => p.test(v)),
});

/** All of the predicates. */
export const allOf = (...predicates: StopPredicate[]): StopPredicate => ({
  name: `allOf(${predicates.map((p) => p.name).join(', ')})`,
  test: (v) => predicates.every((p) => p.test(v)),
});

/** The first predicate that holds, by name; undefined to go on. */
export function firstHolding(predicates: readonly StopPredicate[], view: LoopView): string | undefined {
  return predicates.find((p) => p.test(view))?.name;
}
