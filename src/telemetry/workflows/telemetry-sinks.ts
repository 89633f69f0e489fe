import type { Sinks } from '@temporalio/workflow';

/** What a run tells the worker's metrics: names, counts and reasons only. */
export interface RunFacts {
  agentName: string;
  /** `root` for a run a client started, `sub_agent` for a child run. */
  runKind: 'root' | 'sub_agent';
}

/**
 * The workflow side's way out to the worker's meters: a Temporal sink, never called for replayed
 * history, so a run replayed after an eviction or a worker restart counts nothing twice.
 */
export interface TelemetrySinks extends Sinks {
  thoughtlineTelemetry: {
    runStarted(run: RunFacts): void;
    runEnded(run: RunFacts & { terminationReason: string }): void;
    continuedAsNew(run: RunFacts): void;
  };
}
