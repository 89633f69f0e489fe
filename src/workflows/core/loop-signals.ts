/**
 * Loop signals: the three ways a run's own code leaves the loop early by throwing. Each is caught
 * inside the workflow (the loop, or runAgent for a handover), never by Temporal; a plain Error
 * escaping workflow code would fail the workflow task and retry it forever.
 */
export abstract class LoopSignal extends Error {}

/** Thrown out of the loop between iterations; runAgent carries the state into a new run. */
export class ContinueAsNewRequested extends LoopSignal {
  constructor() {
    super('The run hands over to a new Temporal run (continue-as-new).');
    this.name = 'ContinueAsNewRequested';
  }
}

export type BudgetReason = 'token_budget' | 'cost_budget';

/**
 * The run cannot afford its next model call; the loop ends with `reason`, without calling, or
 * (`onBudget: 'ask'`) pauses for a raise. `tenant`: the tenant's hourly cap, which no raise of
 * the run's budget can lift, so it always ends the run.
 */
export class BudgetExhausted extends LoopSignal {
  constructor(
    readonly reason: BudgetReason,
    message: string,
    readonly tenant = false,
  ) {
    super(message);
    this.name = 'BudgetExhausted';
  }
}

/** Every model (the primary and its fallbacks) failed for good; the loop ends with `error`. */
export class ModelCallFailed extends LoopSignal {
  constructor(
    message: string,
    /** The activity's FailureType, when it classified the failure. */
    readonly failureType?: string,
  ) {
    super(message);
    this.name = 'ModelCallFailed';
  }
}

/** True for the loop's own signals, which the loop handles; anything else propagates. */
export function isLoopSignal(err: unknown): err is LoopSignal {
  return err instanceof LoopSignal;
}
