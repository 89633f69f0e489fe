import { utf8Bytes } from '../../domain/run/payload-size';
import type { CaseResult, Score } from '../../domain/evaluation/case-result';

/**
 * Most bytes one CaseResult may take as JSON: 1,600 of them fit the 2 MiB the evaluation's result
 * may be, with room for its case list and settings (MAX_EVAL_UNITS).
 */
export const MAX_CASE_RESULT_BYTES = 1_024;

const bytesOf = (result: CaseResult): number => utf8Bytes(JSON.stringify(result));

/**
 * The result cut to MAX_CASE_RESULT_BYTES: first the scores' `why`s, long ones first, to an equal
 * share of the room left (short ones keep theirs); then, if the scores' names alone are too many,
 * the run's times, and then the last scores, counted in the note. `passed` was decided on every score before, and the case's
 * scoring workflow still holds them all. Pure; a result that fits comes back unchanged.
 */
export function fitCaseResult(result: CaseResult): CaseResult {
  if (bytesOf(result) <= MAX_CASE_RESULT_BYTES) return result;
  const bare = { ...result, scores: result.scores.map((s) => ({ ...s, why: '' })) };
  const room = MAX_CASE_RESULT_BYTES - bytesOf(bare);
  if (room >= 0) return { ...result, scores: shareWhys(result.scores, room) };
  // The times serve the time targets only; the scores decide the unit: they go before any score does.
  if (result.times !== undefined) {
    const untimed: CaseResult = { ...result };
    delete untimed.times;
    return fitCaseResult(untimed);
  }
  // Even bare, the scores overflow: keep as many as fit (with a note), each with no why.
  const note = (kept: number) =>
    `${result.scores.length - kept} of ${result.scores.length} scores left out here to stay under 1 KB; the case's scoring workflow has them all.`;
  let kept = bare.scores.length;
  let fitted: CaseResult = bare;
  while (kept > 0) {
    kept -= 1;
    fitted = { ...bare, scores: bare.scores.slice(0, kept), note: note(kept) };
    if (bytesOf(fitted) <= MAX_CASE_RESULT_BYTES) return fitted;
  }
  return fitted;
}

/** Each why cut to its share of `room` bytes (UTF-8, JSON-escaped), shares of short ones passed on to long ones. */
function shareWhys(scores: readonly Score[], room: number): Score[] {
  const cost = (why: string) => utf8Bytes(JSON.stringify(why)) - 2;
  const order = scores.map((s, i) => ({ i, bytes: cost(s.why) })).sort((a, b) => a.bytes - b.bytes);
  const allowed = new Array<number>(scores.length).fill(0);
  let left = room;
  order.forEach(({ i, bytes }, n) => {
    const share = Math.floor(left / (order.length - n));
    allowed[i] = Math.min(bytes, share);
    left -= allowed[i]!;
  });
  return scores.map((s, i) => ({ ...s, why: cutTo(s.why, allowed[i]!) }));
}

/** The longest head of `text` whose JSON-escaped UTF-8 form is at most `bytes`, ending in "…" when cut. */
function cutTo(text: string, bytes: number): string {
  const cost = (t: string) => utf8Bytes(JSON.stringify(t)) - 2;
  if (cost(text) <= bytes) return text;
  let end = Math.min(text.length, bytes);
  while (end > 0 && cost(`${text.slice(0, end)}…`) > bytes) end -= 1;
  return end > 0 ? `${text.slice(0, end)}…` : '';
}
