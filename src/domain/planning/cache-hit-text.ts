import { alikeText } from '../text/similarity';
import type { CacheHit } from './plan-verdicts';

/**
 * "cached from run order-42, 3 min old": where a reused result came from, for the CLI and the
 * chain's readers; a plan stored for another goal adds how alike ("reused from a run with a
 * similar goal, 86% alike: cached from run order-42, 3 min old").
 */
export function cacheHitText(hit: CacheHit): string {
  const from = `cached from run ${hit.fromRun}, ${ageText(hit.ageMs)} old`;
  return hit.similarity === undefined
    ? from
    : `reused from a run with a similar goal, ${alikeText(hit.similarity)}: ${from}`;
}

/** A duration in the largest whole unit that fits: seconds, minutes, hours, then days. */
function ageText(ms: number): string {
  const s = Math.floor(ms / 1_000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.floor(h / 24)} days`;
}
