import { MAX_SCORE_WHY_CHARS, type Score } from '../case-result';

/** A score with its `why` cut to MAX_SCORE_WHY_CHARS; `value` is clamped to [0, 1]. */
export function score(scorer: string, value: number, passed: boolean, why: string): Score {
  const clamped = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
  return { scorer, value: clamped, passed, why: cut(why, MAX_SCORE_WHY_CHARS) };
}

/** A pass (1) or a fail (0). */
export const verdict = (scorer: string, passed: boolean, why: string): Score =>
  score(scorer, passed ? 1 : 0, passed, why);

/** Text no longer than `max` characters, an ellipsis marking a cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** A value as a `why` quotes it: its JSON, short. */
export function shown(value: unknown, max = 40): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return cut(text, max);
}

/** A share as a percentage with no more digits than it needs. */
export const percent = (share: number): string => `${Math.round(share * 1000) / 10}%`;
