/** The judge's verdict, or why its reply could not be read. */
export type JudgeVerdict = { score: number; why: string } | { unreadable: string };

/**
 * Reads the judge's reply strictly: one JSON object (optionally in a single ```json fence) with
 * exactly `score`, a number from 0 to 1, and `why`, a non-empty string. Anything else is
 * unreadable, and says what was wrong; a judge that wanders is a failed score, never a guess.
 */
export function readJudgeReply(text: string): JudgeVerdict {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*)\n```$/.exec(trimmed);
  const body = fenced ? fenced[1]!.trim() : trimmed;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { unreadable: `the judge's reply is not JSON: ${quote(trimmed)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { unreadable: `the judge's reply is not a JSON object: ${quote(trimmed)}` };
  const keys = Object.keys(value).sort();
  if (keys.join(',') !== 'score,why')
    return { unreadable: `the judge's reply must have exactly "score" and "why"; it has ${keys.join(', ') || 'none'}` };
  const { score, why } = value as { score: unknown; why: unknown };
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1)
    return { unreadable: `the judge's score must be a number from 0 to 1; it is ${JSON.stringify(score)}` };
  if (typeof why !== 'string' || why.trim() === '') return { unreadable: `the judge gave no "why"` };
  return { score, why: why.trim() };
}

const quote = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
