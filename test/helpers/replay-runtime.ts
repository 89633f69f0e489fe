import { DefaultLogger, Runtime, Worker, type ReplayResult, type ReplayWorkerOptions } from '@temporalio/worker';
import { inject } from 'vitest';
import { createWorkerRunEvents } from '../../src/events/run-event-sinks';

/**
 * Installs a Runtime that logs errors only: the replay tests' negative controls make the core log
 * each determinism violation at WARN, as expected. Once per process; a second call is a no-op.
 */
export function installQuietReplayRuntime(): void {
  try {
    Runtime.install({
      logger: new DefaultLogger('ERROR'),
      telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } },
    });
  } catch {
    // Another file in this process installed it already.
  }
}

/** Every history replayed against the options' workflows, one result each. */
export async function replayEach(
  options: Parameters<typeof Worker.runReplayHistories>[0],
  histories: Parameters<typeof Worker.runReplayHistories>[1],
): Promise<ReplayResult[]> {
  const results: ReplayResult[] = [];
  for await (const result of Worker.runReplayHistories(options, histories)) results.push(result);
  return results;
}

/**
 * The worker's run-event sinks, registered as a real worker registers them. Replay never calls a
 * sink, but the SDK logs an error for each call a workflow makes to one it does not know.
 */
export const replaySinks = (): ReplayWorkerOptions['sinks'] => createWorkerRunEvents(undefined).sinks;

/** Replay against the suite's workflow bundle, as its workers run it. */
export const suiteReplayOptions = (): ReplayWorkerOptions => ({
  workflowBundle: { codePath: inject('workflowBundlePath') },
  sinks: replaySinks(),
});
