/**
 * What kind of character one is, for the hand-written scanners of answers and observations
 * (answer-values.ts, answer-claims.ts). ASCII is decided by its code: a Unicode-property RegExp per
 * character was slow enough inside the workflow sandbox to stall a run's last task on 60,000
 * characters of results. Other characters still go to the Unicode properties.
 */
const code = (ch: string): number => ch.charCodeAt(0);

export function isLetter(ch: string | undefined): boolean {
  if (ch === undefined || ch === '') return false;
  const c = code(ch);
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return /\p{L}/u.test(ch);
}

export function isDigitChar(ch: string | undefined): boolean {
  if (ch === undefined || ch === '') return false;
  const c = code(ch);
  if (c < 128) return c >= 48 && c <= 57;
  return /\p{N}/u.test(ch);
}

/** A letter or a digit of any script. */
export function isLetterOrDigit(ch: string | undefined): boolean {
  return isLetter(ch) || isDigitChar(ch);
}

export function isUpperLetter(ch: string | undefined): boolean {
  if (ch === undefined || ch === '') return false;
  const c = code(ch);
  if (c < 128) return c >= 65 && c <= 90;
  return /\p{Lu}/u.test(ch);
}

/** A combining mark (an accent after NFKD). */
export function isMark(ch: string): boolean {
  return code(ch) >= 128 && /\p{M}/u.test(ch);
}
