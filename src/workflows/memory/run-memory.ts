import type { Learning } from '../../shared';
import type { RunContext } from '../core/run-context';

/**
 * The run's side of memory (`planning.memory`, docs/planning.md): what earlier runs of this agent
 * and tenant learnt, read once as a visible `memory` step, and this run's learnings kept for later
 * runs when it ends. The tenant comes from the run's caller, so memory never crosses tenants.
 */

/** Reads the agent's memory and records it as a `memory` step; the learnings to feed later prompts (none when off or empty). */
export async function recallMemory(ctx: RunContext): Promise<Learning[]> {
  void ctx;
  return [];
}

/** Keeps this run's learnings in the agent's memory (no-op when memory is off or nothing was learnt). */
export async function keepLearnings(ctx: RunContext, learnings: readonly Learning[]): Promise<void> {
  void ctx;
  void learnings;
}
