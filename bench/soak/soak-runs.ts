import { isGrpcServiceError, WorkflowFailedError, type Client } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import type { AgentResult } from '../../src/domain';
import type { SoakApi } from './soak-api';
import type { SoakArrival } from './soak-mix';
import type { SoakEnding } from './soak-report-types';
import { watchRun, type SoakWatch } from './soak-watcher';

/**
 * One run of the soak from its start request to its ending, and what the soak checks of it
 * afterwards. Only numbers are kept (never the result), so an hour of runs stays small.
 */
export interface SoakRun {
  label: string;
  kind: SoakArrival['kind'] | 'scheduled' | 'triggered';
  runId?: string;
  expected: 'finished' | 'cancelled';
  /** The side effects a finished run has applied, one per step (none counted for a cancelled one). */
  stepsExpected?: number;
  /** performance.now() when the start was asked for. */
  requestedAt: number;
  firstStepAt?: number;
  endedAt?: number;
  ending?: SoakEnding;
  /** What went wrong, when the run did not end as its script says. */
  problem?: string;
  /** The step numbers of the run's chain, from its result. */
  chainSteps?: number[];
  /** The run's primary watcher, from its start. */
  watch?: SoakWatch;
}

export interface RunDeps {
  api: SoakApi;
  client: Client;
  serves: ReadonlyArray<{ url: string }>;
  token: string;
  /** Effects the service has applied for a run label. */
  effectsOf(label: string): number;
}

/** The run's ending from Temporal, asking again while the server is unreachable (a restart in progress). */
async function endingOf(
  client: Client,
  runId: string,
): Promise<{ ending: SoakEnding; result?: AgentResult; why?: string }> {
  for (;;) {
    try {
      const result = (await client.workflow.getHandle(runId).result()) as AgentResult;
      if (result.success) return { ending: 'finished', result };
      if (result.terminationReason === 'cancelled') return { ending: 'cancelled', result };
      return { ending: 'failed', result, why: `ended ${result.terminationReason}` };
    } catch (err) {
      if (err instanceof WorkflowFailedError)
        return err.cause instanceof CancelledFailure
          ? { ending: 'cancelled' }
          : { ending: 'failed', why: String(err.cause ?? err) };
      if (isGrpcServiceError(err) || /unavailable|connect|deadline/i.test(String(err))) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      return { ending: 'other', why: String(err) };
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the person or the caller does to a run while it runs: approve it later, cancel it midway. */
async function act(deps: RunDeps, a: SoakArrival, runId: string, ended: () => boolean): Promise<void> {
  if (a.kind === 'approval') {
    const pending = await deps.api.pendingApproval(runId, 600_000);
    await sleep((a.approveAfterS ?? 0) * 1_000);
    await deps.api.approve(runId, pending);
  }
  if (a.kind === 'cancel') {
    while (deps.effectsOf(a.label) < (a.cancelAfter ?? 1)) {
      // A run that ended before it could be cancelled is reported by its ending, not waited on.
      if (ended()) return;
      await sleep(200);
    }
    await deps.api.cancel(runId);
  }
}

/** Follows a run it has started (or was told of) to its end. */
export async function followRun(deps: RunDeps, run: SoakRun, arrival?: SoakArrival): Promise<void> {
  const runId = run.runId!;
  run.watch = watchRun(deps, runId, deps.token);
  const acting = arrival
    ? act(deps, arrival, runId, () => run.endedAt !== undefined).catch(
        (err) => (run.problem ??= `acting on it: ${String(err)}`),
      )
    : undefined;
  const { ending, result, why } = await endingOf(deps.client, runId);
  run.endedAt = performance.now();
  run.ending = ending;
  run.chainSteps = result?.chain.steps.map((s) => s.stepNumber);
  if (ending !== run.expected) run.problem ??= `ended ${ending}, expected ${run.expected}${why ? `: ${why}` : ''}`;
  await acting;
  // The watcher has until a minute after the run's end to hear the end too.
  await Promise.race([run.watch.done, sleep(60_000)]);
  if (run.watch.ending === undefined) run.watch.failure ??= 'no end heard within a minute of the run ending';
  run.watch.close();
  // A run found late (a schedule's) was joined after its start: its first step did not come live.
  if (run.kind !== 'scheduled') run.firstStepAt = run.watch.firstStepAt;
}

/** Starts a run of the mix and follows it. */
export async function driveRun(deps: RunDeps, a: SoakArrival, runs: SoakRun[]): Promise<void> {
  const run: SoakRun = {
    label: a.label,
    kind: a.kind,
    expected: a.expected,
    ...(a.expected === 'finished' ? { stepsExpected: a.steps } : {}),
    requestedAt: performance.now(),
  };
  runs.push(run);
  try {
    run.runId = await deps.api.start(a);
  } catch (err) {
    run.problem = `its start failed: ${String(err)}`;
    return;
  }
  await followRun(deps, run, a);
}
