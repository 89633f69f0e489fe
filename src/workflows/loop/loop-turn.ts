import { FailureType, type ModelReply } from '../../domain';
import { ModelCallFailed } from '../core/loop-signals';
import type { RunContext } from '../core/state/run-context';
import { modelTurn } from '../model/model-turn';
import type { Strategy } from './strategies';

/** The strategy a loop talks to its model with, and the text one it may switch to. */
export interface StrategySlot {
  strategy: Strategy;
  /** Builds text ReAct for this run; undefined when the run already speaks it. */
  textStrategy?: (() => Strategy) | undefined;
}

/**
 * One turn of the loop's model. A model that has no tool calling (its server refused the tools,
 * FailureType.ModelToolsUnsupported) is spoken to in text ReAct from then on, in this run and
 * its continuations (the input carries the new strategy), and the turn is asked again: a model
 * picked without knowing its abilities still gets the task done.
 */
export async function loopTurn(ctx: RunContext, slot: StrategySlot): Promise<ModelReply> {
  try {
    return await modelTurn(ctx, slot.strategy, 'auto');
  } catch (err) {
    const build = slot.textStrategy;
    if (!(err instanceof ModelCallFailed) || err.failureType !== FailureType.ModelToolsUnsupported || !build) throw err;
    slot.strategy = build();
    slot.textStrategy = undefined;
    ctx.input = { ...ctx.input, strategy: 'react-text' };
    ctx.chain.thinking(
      `${ctx.input.model.model} has no tool calling (${err.message}); the run goes on in text ReAct (strategy "react-text").`,
      { level: 'full' },
    );
    return modelTurn(ctx, slot.strategy, 'auto');
  }
}
