/**
 * The worker's store of results runs may reuse (`cache` in AgentInput): tool results, model replies
 * and plans, each under a key that names its tenant (cache-key.ts). Worker side only; workflows
 * reach it through the activities that use it.
 */

import type { CacheKind } from './cache-key';

/** What an entry is, for a person reviewing the cache (`thoughtline cache list`); not part of its key. */
export interface CacheLabel {
  kind: CacheKind;
  /** The storing run's tenant; absent for a run without one. */
  tenant?: string | undefined;
  /** The tool's name, the model provider's, or a plan's goal key. */
  name: string;
}

/** One stored value and where it came from. */
export interface CachedEntry {
  /** JSON-safe; what the storing run got (redacted as it left its activity). */
  value: unknown;
  /** The workflow id of the run that stored it. */
  fromRun: string;
  /** Epoch milliseconds. */
  storedAt: number;
}

/** An entry found by its label: its key, its label's name and when it was stored (epoch ms). */
export interface LabelledEntry {
  key: string;
  name: string;
  storedAt: number;
}

export interface RunCache {
  /**
   * The entry under `key` stored at most `maxAgeMs` ago and not past the time-to-live it was stored
   * with; undefined otherwise. Never throws: a store that cannot be read is a miss.
   */
  get(key: string, maxAgeMs: number): CachedEntry | undefined;
  /**
   * Stores `value` under `key` for `ttlMs`, replacing what was there. False when it is not kept
   * (its JSON is past the value limit, or the store cannot be written). Never throws.
   */
  put(key: string, value: unknown, fromRun: string, ttlMs: number, label?: CacheLabel): boolean;
  /**
   * The newest entries labelled with `kind` and `tenant` (undefined: a run without one), stored at
   * most `maxAgeMs` ago and not expired, newest first, at most `limit`: their keys and label names,
   * without values (a similar-goal lookup scores the names, then reads one value). Never throws.
   */
  latest(kind: CacheKind, tenant: string | undefined, maxAgeMs: number, limit: number): LabelledEntry[];
  /** Removes entries past their time-to-live; how many went. */
  deleteExpired(): number;
  close(): void;
}

/** Largest value kept, in bytes of its JSON (UTF-8): a bigger one is not cached. */
export const MAX_CACHED_VALUE_BYTES = 256 * 1024;
/** Entries kept by default; past it the oldest go. */
export const DEFAULT_MAX_CACHE_ENTRIES = 10_000;
/** Bytes of values kept by default; past it the oldest go. */
export const DEFAULT_MAX_CACHE_BYTES = 256 * 1024 * 1024;
