/** Observation `n` of `chars` characters (at least its own label): the bench tool's, and the bare loop's. */
export function observationText(n: number, chars: number): string {
  const head = `observation ${n}`;
  return chars > head.length ? `${head} ${'x'.repeat(chars - head.length - 1)}` : head;
}
