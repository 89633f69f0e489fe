/**
 * How big a chaos run is, and its seed. `npm test` runs the short version; `npm run chaos` sets
 * CHAOS_SCALE=full (and CHAOS_SEED to reproduce a run: every scenario prints the seed it used).
 */
export interface ChaosSettings {
  full: boolean;
  seed: number;
}

export function chaosSettings(): ChaosSettings {
  const seed = Number(process.env['CHAOS_SEED'] ?? '20261122');
  if (!Number.isInteger(seed)) throw new Error(`CHAOS_SEED must be an integer, not ${process.env['CHAOS_SEED']}`);
  return { full: process.env['CHAOS_SCALE'] === 'full', seed };
}

/** `short` in `npm test`, `full` under `npm run chaos`. */
export const bySize = <T>(short: T, full: T): T => (chaosSettings().full ? full : short);
