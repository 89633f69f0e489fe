/**
 * `promise`, or a rejection once `ms` have passed, so a run that never ends (a workflow task
 * failing forever, a lost worker) fails its figure instead of hanging the whole bench.
 */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A generous limit for one run of `iterations`: a minute, plus two seconds an iteration. */
export const runLimitMs = (iterations: number): number => 60_000 + iterations * 2_000;
