import { CHAIN_SCHEMA_VERSION, type ReasoningChain, type ReasoningStep } from '../../domain';
import type { AgentClient } from '../../client/agent-client';
import { readRunInput } from '../../client/runs/read-run-input';
import { isRunGone } from '../../client/errors/run-gone';
import type { ChainHead, RunUpdate } from '../../store/chain-store';
import { runStateOf } from '../run-access';
import { stateOfDescription } from '../run-ending-read';

/** What Temporal holds of a run now: its row for the store and its steps after `afterStep`. */
export type TemporalRun =
  | { kind: 'gone' }
  | { kind: 'running' }
  | { kind: 'found'; update: RunUpdate; steps: ReasoningStep[]; unavailableThrough: number };

/** How long a run that published its `end` event may take to be recorded closed. */
const CLOSE_WAIT_MS = 10_000;

/** A run's place in its tree, from its input's delegation (a root run is its own root). */
export interface RunTree {
  parentRunId?: string;
  rootRunId: string;
}

/**
 * Counts the Temporal actions the projection causes: a `chain` query of a run that has not
 * completed (a completed run's chain is its result, read from history, which is no action).
 */
export class ActionCounter {
  queries = 0;
  /** Queries per run, for the latest runs queried (at most 1,000 kept). */
  private readonly byRun = new Map<string, number>();

  countQuery(runId: string): void {
    this.queries += 1;
    const count = (this.byRun.get(runId) ?? 0) + 1;
    this.byRun.delete(runId);
    this.byRun.set(runId, count);
    if (this.byRun.size > 1_000) this.byRun.delete(this.byRun.keys().next().value!);
  }

  queriesOf(runId: string): number {
    return this.byRun.get(runId) ?? 0;
  }
}

/** The chain without its steps and without what a reader sets (`view`, `unavailable`): the stored head. */
export function headOf(chain: ReasoningChain): ChainHead {
  const { steps: _steps, view: _view, unavailable: _unavailable, ...head } = chain;
  return head;
}

/** The run's tree from its input (a sub-agent's delegation path: the root first, the parent last). */
function treeOf(input: Record<string, unknown>, runId: string): RunTree {
  const path = (input.delegation as { path?: { workflowId?: unknown }[] } | undefined)?.path;
  const root = path?.[0]?.workflowId;
  const parent = path?.at(-1)?.workflowId;
  return {
    ...(typeof parent === 'string' ? { parentRunId: parent } : {}),
    rootRunId: typeof root === 'string' ? root : runId,
  };
}

/**
 * The head a run has before its first step, from its input and Temporal's description: what the
 * store puts for a run it first hears of through an event, without asking the run (no query).
 */
export async function readStartingRun(agents: AgentClient, runId: string): Promise<TemporalRun> {
  try {
    const [input, description] = await Promise.all([
      readRunInput(agents.client, runId),
      agents.getHandle(runId).describe(),
    ]);
    const caller = input.caller as { id?: string; roles?: string[]; tenant?: string } | undefined;
    const head: ChainHead = {
      schemaVersion: CHAIN_SCHEMA_VERSION,
      chainId: runId,
      agentName: typeof input.agentName === 'string' ? input.agentName : (description.type ?? 'agent'),
      task: typeof input.task === 'string' ? input.task : '',
      startedAt: description.startTime.toISOString(),
      status: 'thinking',
      ...(caller && typeof caller.id === 'string'
        ? {
            caller: {
              id: caller.id,
              roles: caller.roles?.length ? [...caller.roles] : [],
              ...(caller.tenant ? { tenant: caller.tenant } : {}),
            },
          }
        : {}),
    };
    return {
      kind: 'found',
      update: {
        runId,
        head,
        ...stateOfDescription(description),
        ...treeOf(input, runId),
      },
      steps: [],
      unavailableThrough: 0,
    };
  } catch (err) {
    if (isRunGone(err)) return { kind: 'gone' };
    throw err;
  }
}

/**
 * The run as Temporal holds it now, its steps after `afterStep` in the auditor's view (= the raw
 * steps run events carry). A completed run reads its result from history (no action); any other
 * run answers the `chain` query (one action, and a worker must be polling). `complete` is set
 * when the run had ended before the read, so the steps read are all it will ever have.
 */
export async function readRunFromTemporal(
  agents: AgentClient,
  runId: string,
  afterStep: number,
  counter: ActionCounter,
  /** The run said it ended: its close may not be recorded yet, so wait for it (a few seconds at most). */
  ending = false,
  /** False: a run still running answers `running` instead of a query (a sweep's read). */
  queryRunning = true,
): Promise<TemporalRun> {
  try {
    const handle = agents.getHandle(runId);
    let description = await handle.describe();
    for (let waited = 0; ending && description.status.name === 'RUNNING' && waited < CLOSE_WAIT_MS; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      description = await handle.describe();
    }
    const state = runStateOf(description.status.name);
    if (state === 'running' && !queryRunning) return { kind: 'running' };
    if (state !== 'completed') counter.countQuery(runId);
    const [chain, input] = await Promise.all([
      agents.chain(runId, 'auditor', { afterStep }),
      // The first history event: one event read, no worker, no action.
      readRunInput(agents.client, runId),
    ]);
    const ended = state !== 'running';
    return {
      kind: 'found',
      update: {
        runId,
        head: headOf(chain),
        ...stateOfDescription(description),
        ...(description.closeTime ? { endedAt: description.closeTime.toISOString() } : {}),
        ...treeOf(input, runId),
        complete: ended,
      },
      steps: chain.steps,
      unavailableThrough: chain.unavailable?.throughStep ?? 0,
    };
  } catch (err) {
    if (isRunGone(err)) return { kind: 'gone' };
    throw err;
  }
}
