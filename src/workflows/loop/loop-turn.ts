import { FailureType } from '../../domain';
import { ModelCallFailed } from '../core/loop-signals';
import type { RunContext } from '../core/state/run-context';
import type { Strategy } from './strategies';

/** The strategy a loop talks to its model with, and the text one it may switch to. */
export interface StrategySlot {
  strategy: Strategy;
  /** Builds text ReAct for this run; undefined when the run already speaks it. */
  textStrategy?: (() => Strategy) | undefined;
}

/** True when a turn that failed with `err` is asked again in text ReAct (see switchedToText). */
export const switchesToText = (slot: StrategySlot, err: unknown): err is ModelCallFailed =>
  err instanceof ModelCallFailed && err.failureType === FailureType.ModelToolsUnsupported && !!slot.textStrategy;

/**
 * After a turn failed with `err`: when the model has no tool calling (its server refused the
 * tools, FailureType.ModelToolsUnsupported), the run speaks text ReAct to it from then on, in this
 * run and its continuations (the input carries the new strategy), and true says to ask the turn
 * again: a model picked without knowing its abilities still gets the task done. False for any
 * other failure, and once the run speaks text ReAct already.
 */
export function switchedToText(ctx: RunContext, slot: StrategySlot, err: unknown): boolean {
  const build = slot.textStrategy;
  if (!switchesToText(slot, err) || !build) return false;
  slot.strategy = build();
  slot.textStrategy = undefined;
  ctx.input = { ...ctx.input, strategy: 'react-text' };
  ctx.chain.thinking(
    `${ctx.input.model.model} has no tool calling (${err.message}); the run goes on in text ReAct (strategy "react-text").`,
    { level: 'full' },
  );
  return true;
}
