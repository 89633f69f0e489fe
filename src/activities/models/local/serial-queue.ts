/**
 * Runs tasks one at a time, in order. A model has one context sequence: two activities calling
 * it at once would interleave their tokens. A waiting task leaves the queue when its signal
 * aborts, rejecting with the signal's reason at once.
 */
export function createSerialQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return function run<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T> {
    const previous = tail;
    let release!: () => void;
    tail = new Promise<void>((resolve) => (release = resolve));
    const turn = new Promise<void>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      void previous.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
    // The next task waits for this one's end, also when this one never got its turn.
    return turn.then(task).finally(() => void previous.then(release));
  };
}
