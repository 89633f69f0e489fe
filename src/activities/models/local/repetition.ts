/** A reply that has started to repeat itself: the unit, and where the repeats began. */
export interface Repetition {
  /** One copy of what repeats (its length is the period). */
  unit: string;
  /** Index in the text where the first copy starts. */
  start: number;
  /** How many whole copies the tail holds. */
  copies: number;
}

/**
 * The shortest unit looked for. A loop of a shorter one (`2022, 2022, …`) is found as a multiple
 * of it once it covers MIN_REPEATED_SPAN; short repeats below that (`0, 0, 0`, a table rule) pass.
 */
export const MIN_REPEATED_UNIT = 16;
/** Units longer than this are not looked for: a loop that long has already spent its budget. */
export const MAX_REPEATED_UNIT = 400;
/** The repeats must cover at least this many characters and at least three copies. */
export const MIN_REPEATED_SPAN = 200;

/**
 * Whether `text` ends in a loop: the same unit (MIN_REPEATED_UNIT to MAX_REPEATED_UNIT characters)
 * over and over, at least three copies covering MIN_REPEATED_SPAN characters, wherever the tail cuts
 * the last copy. A small model decoding greedily that starts a loop never leaves it, and a retry
 * with more tokens repeats it identically, so the caller stops there. Pure; linear in the span per
 * period, and a mismatch at the very end rules a period out at once.
 */
export function findRepetition(text: string): Repetition | undefined {
  const n = text.length;
  for (let period = MIN_REPEATED_UNIT; period <= Math.min(MAX_REPEATED_UNIT, Math.floor(n / 3)); period++) {
    // How far back from the end every character equals the one a period before it.
    let matched = 0;
    while (matched < n - period && text[n - 1 - matched] === text[n - 1 - matched - period]) matched++;
    const span = matched + period;
    if (matched >= 2 * period && span >= MIN_REPEATED_SPAN) {
      const start = n - span;
      return { unit: text.slice(start, start + period), start, copies: Math.floor(span / period) };
    }
  }
  return undefined;
}
