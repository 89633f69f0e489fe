/**
 * What Temporal's OpenTelemetry interceptors record of an error (span status and `exception`
 * event): its message and stack, which may echo what a caller sent (a forged approval's call id)
 * or a secret. Spans get a stand-in that names only the error's type; the workflow and the caller
 * still get the original. Sandbox code: pure.
 */
import { ContinueAsNew, isCancellation } from '@temporalio/workflow';

export class TypeOnlyError extends Error {
  constructor(readonly original: unknown) {
    super(`${typeOf(original)} (message not exported)`);
    this.name = typeOf(original);
  }
}

/** An ApplicationFailure's own `type`, else the error's class name. */
function typeOf(err: unknown): string {
  if (err instanceof Error) {
    const type = (err as { type?: unknown }).type;
    return typeof type === 'string' && type ? type : err.name;
  }
  return typeof err;
}

/** Temporal's control flow passes as it is: the interceptor treats it as no failure. */
const isControl = (err: unknown): boolean => err instanceof ContinueAsNew || isCancellation(err);
const standIn = (err: unknown): unknown => (isControl(err) ? err : new TypeOnlyError(err));

/** The original behind a stand-in. */
export const originalOf = (err: unknown): unknown => (err instanceof TypeOnlyError ? err.original : err);

export function typeOnlySync<I, R>(next: (input: I) => R): (input: I) => R {
  return (input) => {
    try {
      return next(input);
    } catch (err) {
      throw standIn(err);
    }
  };
}

export function typeOnlyAsync<I, R>(next: (input: I) => Promise<R>): (input: I) => Promise<R> {
  return async (input) => {
    try {
      return await next(input);
    } catch (err) {
      throw standIn(err);
    }
  };
}
