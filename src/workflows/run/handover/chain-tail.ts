import type { ChainArchive, ReasoningChain } from '../../../domain';
import { nextReactCallNumber } from '../../loop/strategies';

/** What a handover carries of the chain at most. */
export interface CarriedLimits {
  readonly steps: number;
  readonly decidedApprovals: number;
  readonly subAgents: number;
}

/**
 * Without a bound the carried chain grew ~3 KB an iteration until, after some 600–900
 * iterations, it no longer fitted a 2 MiB payload.
 */
export const CARRIED_LIMITS: CarriedLimits = {
  /**
   * Latest steps carried; the rest are recorded once, as the archive (see chainTail). A handover's
   * input is recorded twice, so each step carried costs twice its size per handover: readers
   * page further back through the archives anyway.
   */
  steps: 50,
  /** Decided approval records carried (pending ones always are). */
  decidedApprovals: 50,
  /** Sub-agent records carried (running ones always are). */
  subAgents: 50,
};

/**
 * Steps a Temporal run holds (its carried tail and its own) before it hands over, so what one
 * handover leaves behind (its archive) stays well under a payload's limit. Checked after each
 * iteration, so a run may pass it by one iteration's steps.
 */
export const MAX_HELD_STEPS = 800;

/** What a handover passes on of the chain: its bounded tail, and the steps it leaves behind. */
export interface ChainHandover {
  chain: ReasoningChain;
  archive?: ChainArchive;
}

/**
 * The chain a handover carries: its latest steps, pending approvals and the latest decided ones,
 * running sub-agents and the latest others. The steps left behind are the archive, recorded
 * once (keep-archive.ts; readers find it through `earlier`, with no replay), pointing on to where
 * the steps before them are. Pure and deterministic.
 */
export function chainTail(
  chain: ReasoningChain,
  runId: string,
  limits: CarriedLimits = CARRIED_LIMITS,
  leave?: number,
): ChainHandover {
  // `leave` pins the cut: the same steps left behind as an archive already recorded, however many came since.
  const cut = Math.min(chain.steps.length, leave ?? Math.max(0, chain.steps.length - limits.steps));
  const left = chain.steps.slice(0, cut);
  const steps = chain.steps.slice(cut);
  const lastReactCall = Math.max(chain.earlier?.lastReactCall ?? 0, nextReactCallNumber(left) - 1);
  const earlier =
    cut === 0
      ? chain.earlier
      : { runId, throughStep: steps[0]!.stepNumber - 1, ...(lastReactCall > 0 ? { lastReactCall } : {}) };
  const approvals =
    chain.approvals && latestKeeping(chain.approvals, (a) => a.status === 'pending', limits.decidedApprovals);
  const subAgents = chain.subAgents && latestKeeping(chain.subAgents, (s) => s.status === 'running', limits.subAgents);
  const carried = {
    ...chain,
    steps,
    ...(earlier ? { earlier } : {}),
    ...(approvals ? { approvals } : {}),
    ...(subAgents ? { subAgents } : {}),
  };
  return cut === 0
    ? { chain: carried }
    : { chain: carried, archive: { steps: left, ...(chain.earlier ? { earlier: chain.earlier } : {}) } };
}

/** Every item `keep` holds for, and the latest `others` of the rest, in their order. */
function latestKeeping<T>(items: readonly T[], keep: (item: T) => boolean, others: number): T[] {
  const rest = items.filter((item) => !keep(item));
  const dropped = new Set(rest.slice(0, Math.max(0, rest.length - others)));
  return items.filter((item) => !dropped.has(item));
}
