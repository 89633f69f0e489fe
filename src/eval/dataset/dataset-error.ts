import path from 'node:path';

/** One thing wrong with a dataset: where (a line, a field path) and what. */
export interface DatasetProblem {
  line?: number;
  /** The field, as `expect.answer.match` or `input.tools[1]`; absent for the whole case or file. */
  field?: string;
  message: string;
}

/** At most this many problems are listed; the rest are counted. */
const LISTED = 20;

/** A dataset that cannot be run, with every problem found, each as `file:line: field: message`. */
export class DatasetError extends Error {
  override readonly name = 'DatasetError';
  constructor(
    readonly file: string,
    readonly problems: readonly DatasetProblem[],
  ) {
    super(describe(file, problems));
  }
}

function describe(file: string, problems: readonly DatasetProblem[]): string {
  const name = path.basename(file);
  const lines = problems
    .slice(0, LISTED)
    .map((p) => `${name}${p.line !== undefined ? `:${p.line}` : ''}: ${p.field ? `${p.field}: ` : ''}${p.message}`);
  if (problems.length > LISTED) lines.push(`… and ${problems.length - LISTED} more problems`);
  return lines.join('\n');
}
