import { MAX_NARROWED_SUMMARY_CHARS, type NarrowedVisibility } from '../domain/tools/tool-spec';

/**
 * A tool's narrowing request after one more `narrowVisibility` call: the narrowest asked so far.
 * `full` narrows nothing and is ignored; a level it cannot read hides the result (fail closed).
 * The summary line is redacted and cut to MAX_NARROWED_SUMMARY_CHARS.
 */
export function narrowerRequest(
  current: NarrowedVisibility | undefined,
  level: unknown,
  summary: unknown,
  redact: (text: string) => string,
): NarrowedVisibility | undefined {
  if (level === 'full') return current;
  if (level !== 'summary' || current?.level === 'hidden') return { level: 'hidden' };
  const line = typeof summary === 'string' ? redact(summary.trim()) : '';
  if (!line) return { level: 'summary' };
  const cut = line.length > MAX_NARROWED_SUMMARY_CHARS ? `${line.slice(0, MAX_NARROWED_SUMMARY_CHARS - 1)}…` : line;
  return { level: 'summary', summary: cut };
}
