/**
 * What JSON.parse found wrong in a line of a file, without the text: V8's message quotes the
 * line's first bytes (`Unexpected token 'P', "PATH=/usr/"... is not valid JSON`), and a file a
 * dataset names may be anyone's (`/proc/self/environ`). Only the column is kept, when V8 gives it.
 */
export function jsonSyntaxProblem(err: unknown): string {
  const column = /\bcolumn (\d+)\)/.exec(err instanceof Error ? err.message : '')?.[1];
  return column !== undefined ? `not JSON (column ${column})` : 'not JSON';
}
