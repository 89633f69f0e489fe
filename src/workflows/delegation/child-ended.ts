import type { AgentResult, SubAgentRun } from '../../domain';
import { MAX_CHECKED_CLAIMS } from '../../domain/chain/answer-grounding';
import { chainLength } from '../../domain/chain/chain-length';
import type { RunState } from '../core/state/run-state';

/**
 * A child run that reported: its spend (its own children's included) counted into this run's
 * ledger, and its record as the tree shows it from then on: status, spend, steps, and what
 * stands behind its answer. Sub-agents and branches end alike.
 */
export function childEnded(state: RunState, running: SubAgentRun, result: AgentResult): SubAgentRun {
  const iterations = result.iterations + (result.delegated?.iterations ?? 0);
  state.countDelegated({ usage: result.usage, costUsd: result.costUsd, iterations });
  // Whatever the child could not stand behind (contradicted, unsupported, unchecked) grounds nothing for the parent.
  const faults = [
    ...(result.contradictedClaims ?? []),
    ...(result.unsupportedClaims ?? []),
    ...(result.uncheckedClaims ?? []),
  ].slice(0, MAX_CHECKED_CLAIMS);
  return {
    ...running,
    status: result.terminationReason === 'cancelled' ? 'cancelled' : result.success ? 'completed' : 'failed',
    usage: result.usage,
    costUsd: result.costUsd,
    iterations,
    terminationReason: result.terminationReason,
    steps: chainLength(result.chain),
    ...(result.grounding ? { grounding: result.grounding } : {}),
    ...(faults.length > 0 ? { unsupportedClaims: faults } : {}),
  };
}
