import { VERSIONING_DYNAMIC_CONFIG } from './versioning-dynamic-config';

/**
 * The dev server's own throttles, lifted so figures measure Thoughtline rather than the server.
 *
 * The dev server has one history shard, and its transfer queue (which dispatches every workflow
 * and activity task) is read at most 20 times a second by default: each dispatch then waits about
 * 25 ms, which was most of the ~110 ms per ReAct iteration a bare Temporal loop paid here too.
 *
 * Eager activity execution is off by default on a self-hosted server: with it, a workflow task
 * that schedules an activity on the worker's own task queue gets the activity task back in its
 * completion's reply instead of through a poll, which took a fifth off an iteration here.
 *
 * Eager workflow start is off by default too: with it, a client sharing a worker's NativeConnection
 * (AgentClient asks for it then) gets the run's first workflow task in the start's reply, for that
 * worker, instead of through the matching service and a poll.
 *
 * A deleted closed run (`temporal workflow delete`, or what retention does) is removed only once
 * the transfer queue's acknowledged level has passed its closing tasks, and that level is saved
 * every 30 s by default: a run stayed readable 35 s after its delete here, 4 s with 1 s.
 *
 * While a run has a workflow task scheduled or running, the server holds each query until that
 * task ends, but at most `history.MaxBufferedQueryCount` of them per run (default 1); the next is
 * refused with RESOURCE_EXHAUSTED, which Temporal's client retries after 1.4-2 s. Two watchers
 * reading one run at once hit that in about one push-bench run in three here (docs/benchmarks.md).
 */
export const DEV_SERVER_DYNAMIC_CONFIG: readonly string[] = [
  'history.transferProcessorMaxPollRPS=1000',
  'system.enableActivityEagerExecution=true',
  'system.enableEagerWorkflowStart=true',
  'history.transferProcessorUpdateAckInterval="1s"',
  'history.MaxBufferedQueryCount=100',
];

/**
 * With a db file, SQLite syncs the disk on every commit (7–10 ms a write); `synchronous=off`
 * leaves that to the OS. A crash of the server process loses nothing; a power cut may lose or
 * damage the last writes, acceptable for a dev server. The rollback journal stays: a write-ahead
 * log would keep a server whose checkout was deleted writing to its unlinked files, where the
 * journal makes it fail, which is how `thoughtline dev` finds and names such a server.
 */
export const DEV_SERVER_SQLITE_PRAGMAS: readonly string[] = ['synchronous=off'];

/**
 * `temporal server start-dev` flags for the settings above and for worker versioning
 * (versioning-dynamic-config.ts); the pragmas only when a db file is used. `overrides` (`KEY=JSON`)
 * replace the entry of the same key or are added.
 */
export function devServerTuningArgs(opts: { dbFile?: string; overrides?: readonly string[] }): string[] {
  const keyOf = (entry: string): string => entry.slice(0, entry.indexOf('='));
  const overrides = opts.overrides ?? [];
  const replaced = new Set(overrides.map(keyOf));
  const values = [...DEV_SERVER_DYNAMIC_CONFIG, ...VERSIONING_DYNAMIC_CONFIG].filter((v) => !replaced.has(keyOf(v)));
  const args = [...values, ...overrides].flatMap((value) => ['--dynamic-config-value', value]);
  if (opts.dbFile !== undefined)
    args.push(...DEV_SERVER_SQLITE_PRAGMAS.flatMap((pragma) => ['--sqlite-pragma', pragma]));
  return args;
}
