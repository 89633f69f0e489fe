/** Ctrl-C while a command follows a run: noticed once, and a second one ends the process at once. */
export interface Interruption {
  /** Resolves on the first SIGINT after `watchInterruption()`. */
  signalled: Promise<void>;
  readonly happened: boolean;
  dispose(): void;
}

/** Node's exit code for a process ended by SIGINT (128 + 2), which shells and scripts expect. */
export const INTERRUPTED_EXIT_CODE = 130;

export function watchInterruption(): Interruption {
  let happened = false;
  let resolve: () => void = () => {};
  const signalled = new Promise<void>((r) => (resolve = r));
  const onSignal = (): void => {
    if (happened) process.exit(INTERRUPTED_EXIT_CODE);
    happened = true;
    resolve();
  };
  process.on('SIGINT', onSignal);
  return {
    signalled,
    get happened() {
      return happened;
    },
    dispose: () => process.off('SIGINT', onSignal),
  };
}
