/**
 * Ctrl-C while a command prepares and then follows a run. Before `arm()` (nothing started yet),
 * it ends the process at once; after, the first is noticed and the command winds down, and a
 * second ends the process at once.
 */
export interface Interruption {
  /** Resolves on the first SIGINT after `arm()`. */
  signalled: Promise<void>;
  readonly happened: boolean;
  /** From now on, Ctrl-C is the command's to handle: there is a run to say something about. */
  arm(): void;
  dispose(): void;
}

/** The exit code of a process ended by SIGINT (128 + 2), which shells and scripts expect. */
export const INTERRUPTED_EXIT_CODE = 130;

export function watchInterruption(): Interruption {
  let armed = false;
  let happened = false;
  let resolve: () => void = () => {};
  const signalled = new Promise<void>((r) => (resolve = r));
  const onSignal = (): void => {
    if (!armed || happened) process.exit(INTERRUPTED_EXIT_CODE);
    happened = true;
    resolve();
  };
  process.on('SIGINT', onSignal);
  return {
    signalled,
    get happened() {
      return happened;
    },
    arm: () => (armed = true),
    dispose: () => process.off('SIGINT', onSignal),
  };
}
