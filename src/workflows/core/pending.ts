/**
 * An activity's promise and what its callers make of the result, composed before the result
 * arrives. The layers of a turn (the call, the turn, the loop) each map it without a `then` of
 * their own: the SDK takes a stack trace for every promise a workflow makes, on every workflow
 * task and replay, so a turn that waits for one activity makes one promise more than it, not one
 * a layer. Pure.
 */

/** A value now, or a promise of it (the uncommon paths that wait for something more). */
export type Later<T> = T | Promise<T>;

/** How the source settled, as its one awaiting caller saw it. */
export type Outcome = { value: unknown } | { failure: unknown };

export class Pending<T> {
  private constructor(
    private readonly source: Promise<unknown>,
    private readonly ok: (value: unknown) => Later<T>,
    private readonly fail: (err: unknown) => Later<T>,
  ) {}

  /** `ok` reads the source's value, `fail` its rejection; what either throws rejects the result. */
  static of<S, T>(source: Promise<S>, ok: (value: S) => Later<T>, fail: (err: unknown) => Later<T>): Pending<T> {
    return new Pending<T>(source, ok as (value: unknown) => Later<T>, fail);
  }

  /** `f` applied to this result, as a `then` would, without a promise while the result is a value. */
  map<U>(f: (value: T) => Later<U>): Pending<U> {
    return new Pending<U>(
      this.source,
      (value) => laterMap(this.ok(value), f),
      (err) => laterMap(this.fail(err), f),
    );
  }

  /** The one promise: the source's, mapped. */
  promise(): Promise<T> {
    return this.source.then(this.ok, this.fail);
  }

  /**
   * The source itself, for a caller that awaits it and then `settle`s (the loop, whose own await
   * is then the turn's only promise besides the activity's).
   */
  get awaited(): Promise<unknown> {
    return this.source;
  }

  /** What the mappings make of the source's outcome. */
  settle(outcome: Outcome): Later<T> {
    return 'failure' in outcome ? this.fail(outcome.failure) : this.ok(outcome.value);
  }
}

/** A step of a turn: composable while it waits for one activity, else already a promise. */
export type Step<T> = Pending<T> | Promise<T>;

export function mapStep<T, U>(step: Step<T>, f: (value: T) => Later<U>): Step<U> {
  return step instanceof Pending ? step.map(f) : step.then(f);
}

export const stepPromise = <T>(step: Step<T>): Promise<T> => (step instanceof Pending ? step.promise() : step);

/**
 * For a caller that awaits a step itself, in two parts around its own `await` (the loop's, each
 * iteration, where a helper of its own would be one more promise): what to await, then what the
 * outcome makes, a value or a promise still to await. A promise step's failure is thrown here.
 */
export const awaitedOf = (step: Step<unknown>): Promise<unknown> => (step instanceof Pending ? step.awaited : step);

export function settled<T>(step: Step<T>, outcome: Outcome): Later<T> {
  if (step instanceof Pending) return step.settle(outcome);
  if ('failure' in outcome) throw outcome.failure;
  return outcome.value as T;
}

function laterMap<T, U>(value: Later<T>, f: (value: T) => Later<U>): Later<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}
