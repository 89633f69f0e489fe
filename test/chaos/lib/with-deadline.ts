/** `work`, or a rejection saying `describe()` once `ms` pass first. */
export function withDeadline<T>(work: Promise<T>, ms: number, describe: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(describe())), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
