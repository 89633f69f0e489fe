import { seededRandom, type SeededRandom } from '../../test/chaos/lib/seeded-random';

/**
 * What arrives during a soak: a steady stream of runs, a mix a team would see, each with the way
 * its script says it must end. Pure: the same seed gives the same plan, so a failing soak can be
 * run again on the same arrivals.
 */

export type SoakKind = 'short' | 'long' | 'approval' | 'team' | 'cancel';

export interface SoakArrival {
  /** Unique in the soak; names the run in its task, so the stateless model knows what to answer. */
  label: string;
  kind: SoakKind;
  /** slow_job calls the run makes (a team's lead makes none; its sub-agent makes `steps`). */
  steps: number;
  /** Seconds from the start of load. */
  atS: number;
  expected: 'finished' | 'cancelled';
  /** cancel: the run is cancelled once this many of its effects are applied. */
  cancelAfter?: number;
  /** approval: how long the person takes to approve, from the request. */
  approveAfterS?: number;
}

/** Of every hundred runs: most short, some long, approvals given later, sub-agents, cancellations. */
const WEIGHTS: ReadonlyArray<[SoakKind, number]> = [
  ['short', 45],
  ['long', 15],
  ['approval', 15],
  ['team', 10],
  ['cancel', 15],
];

function pick(r: SeededRandom): SoakKind {
  let x = r.next() * 100;
  for (const [kind, weight] of WEIGHTS) {
    if (x < weight) return kind;
    x -= weight;
  }
  return 'short';
}

function arrival(r: SeededRandom, index: number, atS: number): SoakArrival {
  const kind = pick(r);
  const label = `s${index}${kind[0]}`;
  switch (kind) {
    case 'short':
      return { label, kind, steps: r.int(1, 5), atS, expected: 'finished' };
    case 'long':
      return { label, kind, steps: r.int(10, 50), atS, expected: 'finished' };
    case 'approval':
      return { label, kind, steps: 1, atS, expected: 'finished', approveAfterS: r.int(5, 30) };
    case 'team':
      return { label, kind, steps: r.int(1, 4), atS, expected: 'finished' };
    case 'cancel':
      return { label, kind, steps: 40, atS, expected: 'cancelled', cancelAfter: r.int(1, 4) };
  }
}

/** Arrivals at `perMinute`, evenly spaced, for `minutes`. */
export function soakMix(o: { minutes: number; perMinute: number; seed: number }): SoakArrival[] {
  const r = seededRandom(o.seed);
  const count = Math.floor(o.minutes * o.perMinute);
  return Array.from({ length: count }, (_, i) => arrival(r, i, (i * 60) / o.perMinute));
}

/** The task a run of the mix is given: the model reads its kind, label and steps back from it. */
export const soakTask = (kind: SoakKind | 'scheduled' | 'triggered' | 'child', label: string, steps: number): string =>
  `soak ${kind} ${label} of ${steps} steps`;

export const SOAK_TASK = /soak (\w+) (\S+) of (\d+) steps/;
