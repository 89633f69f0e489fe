/**
 * `work`, or a rejection naming `what` once `ms` pass first. The work itself is not stopped (a
 * query cannot be taken back); the caller stops waiting, so one run with no worker to answer
 * never holds a catch-up slot for long.
 */
export async function withinDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: ${ms / 1000} s passed`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
