/**
 * A count with its noun, singular for one: `counted(1, 'tool call')` is "1 tool call",
 * `counted(2, 'tool call')` "2 tool calls"; `many` for a noun whose plural is not `noun + s`.
 * `shown` is the count as the caller prints it (grouped digits), by default `String(n)`.
 * Pure and sandbox-safe: workflow code may use it too.
 */
export function counted(n: number, noun: string, options: { many?: string; shown?: string } = {}): string {
  return `${options.shown ?? String(n)} ${n === 1 ? noun : (options.many ?? `${noun}s`)}`;
}
