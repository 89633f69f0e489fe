import { z } from 'zod';
import { ChainStatus } from '../chain/chain';
import { TerminationReason } from '../run/termination';

/**
 * A run's state in the API's words (as `GET /v1/runs` says it): Temporal's, except that a run that
 * ended with `failure` or `error` is `failed` and one that ended `cancelled` is `cancelled` (its
 * ending's state, `endedStateOf`).
 */
export const StoredRunState = z.enum([
  'running',
  'completed',
  'failed',
  'cancelled',
  'terminated',
  'timed_out',
  'continued',
]);
export type StoredRunState = z.infer<typeof StoredRunState>;

/**
 * How a run came into the store from a sealed export (`thoughtline import`, `POST /v1/imports`)
 * rather than from Temporal: checked against its seal and an anchor before it was written, and
 * never overwritten by Temporal's copy. Absent on every run the projection wrote.
 */
export const RunImport = z.object({
  /**
   * The workflow id the run had where it was exported (its report's), kept for reading only: the
   * import is stored under an id of its own (`import:…`, see IMPORT_ID_PREFIX). Absent on runs
   * imported before imports had their own ids.
   */
  originalRunId: z.string().optional(),
  /** When it was imported, and by whom (the importer's identity, never a field of the file). */
  importedAt: z.string(),
  importedBy: z.string(),
  /** Where the bundle came from: a file's name, or `api` for an upload. */
  from: z.string().max(1_000),
  /** The export it came from: when, and by whom when the report named them. */
  exportedAt: z.string(),
  exportedBy: z.string().optional(),
  /** The report's sealed final hash, and what tied it to its author on import. */
  finalHash: z.string(),
  anchor: z.enum(['trusted_key', 'final_hash']),
  /** With `anchor: trusted_key`: the key's id. */
  keyId: z.string().optional(),
});
export type RunImport = z.infer<typeof RunImport>;

/**
 * One run as the chain store keeps it: the columns searches filter on. Derived from the run's chain
 * and Temporal's description; every aggregate (steps, cost, tokens, tools) is computed from the
 * stored steps, so writing a step twice never counts it twice.
 */
export const StoredRun = z.object({
  /** The workflow id. */
  runId: z.string(),
  agentName: z.string(),
  task: z.string(),
  /** From the chain's `caller` (a sub-agent carries its root's); absent for a run without one. */
  tenant: z.string().optional(),
  callerId: z.string().optional(),
  /** The run that delegated to this one, and the root of its tree (itself for a root run). */
  parentRunId: z.string().optional(),
  rootRunId: z.string(),
  state: StoredRunState,
  /** Why it ended, once the workflow ended it with a result; absent while it runs and when Temporal ended it. */
  terminationReason: TerminationReason.optional(),
  chainStatus: ChainStatus,
  startedAt: z.string(),
  endedAt: z.string().optional(),
  /** Steps stored, and the highest step number among them. */
  stepCount: z.number().int().nonnegative(),
  lastStep: z.number().int().nonnegative(),
  /** Steps only the auditor's view shows. */
  hiddenSteps: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** The highest iteration among its stored steps; absent for a row stored before schema version 6, until a rebuild. */
  iterations: z.number().int().nonnegative().optional(),
  /** The model that answered its latest stored model call. */
  model: z.string().optional(),
  /** From its start to its end, once ended. */
  durationMs: z.number().nonnegative().optional(),
  /** Distinct tools the run called (model calls included, as `llm` tool steps name them), sorted. */
  tools: z.array(z.string()),
  /** The run has ended and its whole chain was read from Temporal after the end: the store is exact. */
  complete: z.boolean(),
  /** Temporal no longer has the run's history (retention or deletion): the store is all there is. */
  temporalGone: z.boolean(),
  /** Set while the store knows it misses steps (a gap in the events, a failed write); cleared by catch-up. */
  behindSince: z.string().optional(),
  /** When the store last wrote this run. */
  storedAt: z.string(),
  /** Set on a run imported from a sealed export (its origin); such a run is `temporalGone` and `complete`. */
  imported: RunImport.optional(),
});
export type StoredRun = z.infer<typeof StoredRun>;
