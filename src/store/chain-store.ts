import type { ChainStatus, ReasoningChain, ReasoningStep } from '../domain';
import type { ViewFacts } from '../domain/chain/chain-view';
import type { ViewerRole } from '../domain/identity/people';
import type {
  RunImport,
  RunList,
  RunListPage,
  RunSearch,
  StepFilter,
  StoredRun,
  StoredRunState,
  TenantUsage,
  UsageRow,
} from '../domain/store';
import type { TerminationReason } from '../domain/run/termination';
import type { ViewerPreferences } from '../domain/visibility';

/** A chain without its steps: what the store keeps of a run besides them. */
export type ChainHead = Omit<ReasoningChain, 'steps'>;

/**
 * Who is asking, from their authenticated identity (never from a request's fields): a reader sees
 * only runs of `tenant` (null: runs without a tenant), and only what `role`'s view shows.
 */
export interface StoreScope {
  tenant: string | null;
  role: ViewerRole;
}

/** A write of a run's head and state; every field replaces the stored one. Idempotent. */
export interface RunUpdate {
  runId: string;
  head: ChainHead;
  state: StoredRunState;
  /** Why it ended (see StoredRun); `state` is then the ending's state. */
  terminationReason?: TerminationReason;
  endedAt?: string;
  parentRunId?: string;
  rootRunId?: string;
  /** The run has ended and its whole chain has been written from Temporal after the end. */
  complete?: boolean;
  /**
   * The run comes from a sealed export (`thoughtline import`): marks it imported and temporalGone.
   * A write without it keeps the mark a run has: only an import sets it, nothing clears it.
   */
  imported?: RunImport;
}

/** A run's head as stored, with what its views need: the facts of all its steps. */
export interface StoredHead {
  run: StoredRun;
  head: ChainHead;
  /** Every stored step and approval record added (`IncrementalChainView.fromFacts`). */
  facts: ViewFacts;
}

/** Steps of one run after `afterStep`, oldest first, at most `limit`, narrowed by `filter`. */
export interface StepRead {
  afterStep: number;
  limit: number;
  /**
   * Matched on the raw (auditor's) step: a text filter may therefore return steps whose viewed
   * text no longer matches; the reader re-checks them in the caller's view and drops those.
   */
  filter?: StepFilter;
}

/** One page of runs found (candidates: `text` matched on raw steps, re-checked by the reader). */
export interface RunCandidates {
  runs: { run: StoredRun; matchedSteps: number[] }[];
  next?: string;
}

/**
 * The chain store: a projection of every chain in a database, never the source of truth (Temporal
 * is). Every write is idempotent, keyed by run and step number, so a repeated event, a catch-up
 * over steps already written, or two servers writing at once leave it exact. Implementations:
 * SQLite through node:sqlite (one machine) and PostgreSQL (several servers). A method rejects
 * when the database cannot be reached; it never half-writes a step.
 */
export interface ChainStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Where it is, for messages (a file, or a URL without its password). */
  readonly where: string;
  /** Creates or upgrades its tables; safe from two processes at once. */
  migrate(): Promise<void>;
  /** Answers when the database does; rejects with the cause when it does not. */
  ping(): Promise<void>;

  putRun(update: RunUpdate): Promise<void>;
  /** Upserts steps by (run, stepNumber); the run must have been put first. Updates aggregates and facts. */
  putSteps(runId: string, steps: readonly ReasoningStep[]): Promise<void>;
  /**
   * The run's chain status as the latest event said it, and the latest step number Temporal is known
   * to hold: past the stored `lastStep`, the run is marked behind (`behindSince`) until steps fill it.
   */
  noteProgress(runId: string, chainStatus: ChainStatus, knownThroughStep: number): Promise<void>;
  /** Marks the run as missing steps (since now) or, with `false`, caught up. */
  markBehind(runId: string, behind: boolean): Promise<void>;
  /** Temporal no longer has the run's history: the store keeps it as the only copy. */
  markTemporalGone(runId: string): Promise<void>;

  run(runId: string): Promise<StoredRun | undefined>;
  head(runId: string): Promise<StoredHead | undefined>;
  steps(runId: string, read: StepRead): Promise<ReasoningStep[]>;
  /** Runs in scope matching the search, newest start first. Tool and hidden steps follow `scope.role`. */
  searchRuns(search: RunSearch, scope: StoreScope): Promise<RunCandidates>;
  /** The scope's root runs, sorted by one column and paged (a run list, issue 82). */
  listRuns(list: RunList, scope: StoreScope): Promise<RunListPage>;
  /** Usage per agent per UTC day of the runs in scope started in [from, to). */
  usage(scope: StoreScope, from: string, to: string, agent?: string): Promise<UsageRow[]>;
  /** One tenant's runs started in [from, to): runs, calls, tokens and cost in total, by agent and by model. */
  tenantUsage(tenant: string, from: string, to: string): Promise<TenantUsage>;

  /** A person's saved viewing preferences (journey 5), by identity id; undefined when none are saved. */
  readPreferences(identityId: string): Promise<ViewerPreferences | undefined>;
  /** Saves (replaces) a person's viewing preferences. */
  writePreferences(identityId: string, preferences: ViewerPreferences): Promise<void>;

  /** When the store last wrote any run (ISO), or undefined when it holds none: where a restarted projection resumes. */
  lastWrite(): Promise<string | undefined>;
  /** Run ids for catch-up and checks: all, or those not complete, oldest first, a page at a time. */
  runIds(options: { incompleteOnly?: boolean; afterRunId?: string; limit: number }): Promise<string[]>;
  /** Deletes runs (and their steps) that ended before `cutoff` (ISO); returns how many. Imported runs are kept: they have no other copy here. */
  deleteEndedBefore(cutoff: string): Promise<number>;
  close(): Promise<void>;
}
