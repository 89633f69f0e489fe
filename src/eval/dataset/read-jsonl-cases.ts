import { jsonSyntaxProblem } from '../../files/json-syntax-problem';
import type { DatasetProblem } from './dataset-error';

/** A case as read from its file, before it is checked: its value and where it starts. */
export interface RawCase {
  line: number;
  value: unknown;
  /** The line of a field inside the case, when the format tells (YAML); else the case's line. */
  lineOf(path: ReadonlyArray<string | number>): number;
}

/**
 * JSONL: one case per line. Blank lines and lines starting with `#` or `//` are skipped, so a
 * dataset can be commented and grouped; a case never spans lines.
 */
export function readJsonlCases(text: string): { cases: RawCase[]; problems: DatasetProblem[] } {
  const cases: RawCase[] = [];
  const problems: DatasetProblem[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('//')) return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (err) {
      // Never the parser's message: it quotes the line.
      problems.push({ line, message: jsonSyntaxProblem(err) });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push({ line, message: 'a case is a JSON object, one per line' });
      return;
    }
    cases.push({ line, value, lineOf: () => line });
  });
  return { cases, problems };
}
