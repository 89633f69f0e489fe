import type { VisibilityLevel } from '../chain/chain';

/** Levels from widest to narrowest: a layer can only move a step to the right. */
const ORDER: readonly VisibilityLevel[] = ['full', 'summary', 'hidden'];

/** The narrower of two levels; an absent level does not limit. */
export function narrowestLevel(
  a: VisibilityLevel | undefined,
  b: VisibilityLevel | undefined,
): VisibilityLevel | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b;
}

/** Whether `a` shows less than `b` (an absent level shows everything). */
export function isNarrower(a: VisibilityLevel | undefined, b: VisibilityLevel | undefined): boolean {
  return ORDER.indexOf(a ?? 'full') > ORDER.indexOf(b ?? 'full');
}
