import { StatusAttribute } from '../domain';
import { runEnding, type RunEnding } from '../domain/run/run-ending';
import { TerminationReason } from '../domain/run/termination';
import { runStateOf, type RunState } from './run-access';

/**
 * The ending a list knows without reading the result: Temporal's state, and for a completed run
 * the termination reason the workflow's last upsert left in `ThoughtlineStatus`. Undefined while
 * it runs, or for a completed run recorded before that upsert (its status stays `completed`).
 */
export function endingOfVisibility(state: RunState, statusAttribute: string | undefined): RunEnding | undefined {
  if (state === 'running' || state === 'continued') return undefined;
  if (state !== 'completed') return runEnding({ execution: state });
  const reason = TerminationReason.safeParse(statusAttribute);
  return reason.success ? runEnding({ terminationReason: reason.data }) : undefined;
}

/** What `describe` or a visibility listing says of a run, for its ending's state. */
interface Described {
  status: { name: string };
  typedSearchAttributes: { get(key: typeof StatusAttribute): string | undefined };
}

/**
 * A run's state as the API says it (its ending's, once ended) and its termination reason, from
 * its description alone: what the chain store keeps and `store check` compares.
 */
export function stateOfDescription(description: Described): { state: RunState; terminationReason?: TerminationReason } {
  const state = runStateOf(description.status.name);
  const ending = endingOfVisibility(state, description.typedSearchAttributes.get(StatusAttribute));
  if (!ending) return { state };
  return { state: ending.state, ...(ending.terminationReason ? { terminationReason: ending.terminationReason } : {}) };
}
