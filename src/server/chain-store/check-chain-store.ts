import type { ReasoningStep } from '../../domain';
import type { AgentClient } from '../../client/agent-client';
import { isRunGone } from '../../client/errors/run-gone';
import type { ChainStore } from '../../store/chain-store';
import { runStateOf } from '../run-access';
import { stateOfDescription } from '../run-ending-read';
import { canonicalJson } from './canonical-json';
import { ALL_QUERY, listAgentRuns } from './list-agent-runs';

/** One way the store and Temporal disagree about a run. */
export interface StoreDifference {
  runId: string;
  /** What differs, in a sentence. */
  what: string;
}

export interface StoreCheck {
  /** Runs compared. */
  runs: number;
  differences: StoreDifference[];
}

/** Differences reported per run at most: the first few say enough, a broken run must not flood. */
const MAX_PER_RUN = 5;
const PAGE = 1_000;

/** Every step the store has of a run, oldest first. */
export async function storedSteps(store: ChainStore, runId: string): Promise<ReasoningStep[]> {
  const steps: ReasoningStep[] = [];
  for (;;) {
    const page = await store.steps(runId, { afterStep: steps.at(-1)?.stepNumber ?? 0, limit: PAGE });
    steps.push(...page);
    if (page.length < PAGE) return steps;
  }
}

/**
 * Compares one run in the store with Temporal's chain in the auditor's view (the raw steps the
 * store keeps): its state, which steps each has, and each step's JSON. A running run's steps past
 * the store's last are not a difference (they are on their way); an ended run must have them all.
 * Reading a run that has not completed is a `chain` query (one Temporal action).
 */
export async function checkRun(store: ChainStore, agents: AgentClient, runId: string): Promise<StoreDifference[]> {
  const differences: string[] = [];
  const stored = await store.run(runId);
  let description;
  try {
    description = await agents.getHandle(runId).describe();
  } catch (err) {
    if (!isRunGone(err)) throw err;
    if (stored && !stored.temporalGone)
      differences.push('Temporal no longer has this run, and the store does not mark it temporalGone');
    return differences.map((what) => ({ runId, what }));
  }
  if (!stored) return [{ runId, what: 'the store does not have this run' }];
  const state = runStateOf(description.status.name);
  const ending = stateOfDescription(description);
  if (stored.state !== ending.state) differences.push(`state: store ${stored.state}, Temporal ${ending.state}`);
  if (stored.terminationReason !== ending.terminationReason)
    differences.push(
      `termination reason: store ${stored.terminationReason ?? 'none'}, Temporal ${ending.terminationReason ?? 'none'}`,
    );
  const chain = await agents.chain(runId, 'auditor');
  const gone = chain.unavailable?.throughStep ?? 0;
  const theirs = new Map(chain.steps.map((s) => [s.stepNumber, s]));
  const ours = new Map((await storedSteps(store, runId)).map((s) => [s.stepNumber, s]));
  const ended = state !== 'running';
  for (const [number, step] of theirs) {
    const mine = ours.get(number);
    if (!mine) {
      if (ended || number <= stored.lastStep) differences.push(`step ${number}: missing from the store`);
    } else if (canonicalJson(mine) !== canonicalJson(step)) differences.push(`step ${number}: differs`);
  }
  for (const number of ours.keys())
    if (number > gone && !theirs.has(number)) differences.push(`step ${number}: in the store, not in Temporal`);
  if (ended && !stored.complete) differences.push('the run has ended but the store does not mark it complete');
  const shown = differences.slice(0, MAX_PER_RUN);
  if (differences.length > MAX_PER_RUN) shown.push(`and ${differences.length - MAX_PER_RUN} more`);
  return shown.map((what) => ({ runId, what }));
}

/** Compares the runs named, or every agent run Temporal lists and every run the store has. */
export async function checkChainStore(
  store: ChainStore,
  agents: AgentClient,
  runIds?: readonly string[],
): Promise<StoreCheck> {
  const ids = runIds ? [...runIds] : await everyRun(store, agents);
  const differences: StoreDifference[] = [];
  for (const runId of ids) differences.push(...(await checkRun(store, agents, runId)));
  return { runs: ids.length, differences };
}

/** Agent runs Temporal lists, then runs only the store has, each once. */
export async function everyRun(store: ChainStore, agents: AgentClient): Promise<string[]> {
  const ids = new Set<string>();
  for await (const runId of listAgentRuns(agents, ALL_QUERY)) ids.add(runId);
  let after: string | undefined;
  for (;;) {
    const page = await store.runIds({ limit: 500, ...(after ? { afterRunId: after } : {}) });
    for (const runId of page) ids.add(runId);
    if (page.length < 500) return [...ids];
    after = page.at(-1);
  }
}
