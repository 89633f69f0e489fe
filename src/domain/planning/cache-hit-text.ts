import type { CacheHit } from './plan-verdicts';

/** "cached from run order-42, 3 min old": where a reused result came from, for the CLI and the chain's readers. */
export function cacheHitText(hit: CacheHit): string {
  return `cached from run ${hit.fromRun}, ${ageText(hit.ageMs)} old`;
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
