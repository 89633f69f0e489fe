/**
 * Word-level reading shared by the claim readers of weather conditions and conclusions
 * (claim-conditions.ts, claim-conclusions.ts): ASCII letters only, since their allow-lists are
 * English words. Pure and sandbox-safe.
 */

/** An ASCII letter: the words these readers know are spelled in them. */
export function isAsciiLetter(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
}

/** The word after `at` (past spaces), lower-cased; empty when none follows. */
export function nextWord(text: string, at: number): string {
  let i = at;
  while (text[i] === ' ') i++;
  let end = i;
  while (isAsciiLetter(text[end])) end++;
  return text.slice(i, end).toLowerCase();
}
