import type { Sinks } from '@temporalio/workflow';

/** What a run tells the worker's metrics: names, counts and reasons only. */
export interface RunFacts {
  agentName: string;
  /** `root` for a run a client started, `sub_agent` for a child run. */
  runKind: 'root' | 'sub_agent';
  /** The caller's tenant (a metric label); absent for runs without one. */
  tenant?: string;
  /**
   * A sub-agent's delegating agents, root first (their policy's `subChains` decides whether its
   * steps show at all); absent for a root run. Never a metric label.
   */
  ancestors?: string[];
}

/** The run's span as the worker side needs it to put a step's span under it (content capture). */
export interface RunSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
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
    /**
     * Once per live workflow task (none on replay, none for a query): the run's facts and span,
     * so a worker that took the run over mid-way knows them from its first new task.
     */
    runSpan(run: RunFacts & RunSpanContext): void;
  };
}
