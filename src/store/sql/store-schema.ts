import type { SqlExecutor } from './sql-driver';

/** The schema this code writes; a database at a newer version is refused, never downgraded. */
export const STORE_SCHEMA_VERSION = 6;

/** Table names under one prefix, so the store can share a database with other tables. */
export interface StoreTables {
  runs: string;
  steps: string;
  schema: string;
  /** Version 2: each person's viewing preferences, by identity id. */
  preferences: string;
}

export function storeTables(prefix: string): StoreTables {
  // The prefix is spliced into SQL: only identifier characters.
  for (const ch of prefix)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '_'))
      throw new Error(`The chain store's table prefix "${prefix}" may hold only a-z, 0-9 and _.`);
  return {
    runs: `${prefix}runs`,
    steps: `${prefix}steps`,
    schema: `${prefix}store_schema`,
    preferences: `${prefix}viewer_preferences`,
  };
}

/**
 * Version 1. Both databases read the same DDL: TEXT for strings and JSON, INTEGER for counts and
 * 0/1 flags, DOUBLE PRECISION for money. Times are ISO-8601 UTC strings, which sort as times.
 */
function version1(t: StoreTables): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${t.runs} (
      run_id TEXT PRIMARY KEY,
      agent_name TEXT NOT NULL,
      task TEXT NOT NULL,
      tenant TEXT,
      caller_id TEXT,
      parent_run_id TEXT,
      root_run_id TEXT NOT NULL,
      state TEXT NOT NULL,
      chain_status TEXT NOT NULL,
      started_at TEXT NOT NULL,
      ended_at TEXT,
      step_count INTEGER NOT NULL DEFAULT 0,
      last_step INTEGER NOT NULL DEFAULT 0,
      hidden_steps INTEGER NOT NULL DEFAULT 0,
      cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0,
      input_tokens BIGINT NOT NULL DEFAULT 0,
      output_tokens BIGINT NOT NULL DEFAULT 0,
      tools TEXT NOT NULL DEFAULT '[]',
      complete INTEGER NOT NULL DEFAULT 0,
      temporal_gone INTEGER NOT NULL DEFAULT 0,
      behind_since TEXT,
      known_through INTEGER NOT NULL DEFAULT 0,
      stored_at TEXT NOT NULL,
      head_json TEXT NOT NULL,
      facts_json TEXT NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS ${t.runs}_tenant_started ON ${t.runs} (tenant, started_at, run_id)`,
    `CREATE INDEX IF NOT EXISTS ${t.runs}_started ON ${t.runs} (started_at, run_id)`,
    `CREATE INDEX IF NOT EXISTS ${t.runs}_ended ON ${t.runs} (ended_at)`,
    `CREATE TABLE IF NOT EXISTS ${t.steps} (
      run_id TEXT NOT NULL,
      step_number INTEGER NOT NULL,
      type TEXT NOT NULL,
      tool TEXT,
      call_id TEXT,
      level TEXT NOT NULL,
      ts TEXT NOT NULL,
      cost_usd DOUBLE PRECISION NOT NULL,
      input_tokens BIGINT NOT NULL,
      output_tokens BIGINT NOT NULL,
      search_text TEXT NOT NULL,
      step_json TEXT NOT NULL,
      PRIMARY KEY (run_id, step_number)
    )`,
    `CREATE INDEX IF NOT EXISTS ${t.steps}_tool ON ${t.steps} (tool, run_id)`,
    `CREATE INDEX IF NOT EXISTS ${t.steps}_call_type ON ${t.steps} (run_id, call_id, type)`,
    // Covers the aggregates recomputed on every write, so they never read the steps' JSON.
    `CREATE INDEX IF NOT EXISTS ${t.steps}_totals ON ${t.steps} (run_id, type, tool, level, cost_usd, input_tokens, output_tokens, step_number)`,
  ];
}

/** Version 2: what each person chose to see (journey 5), kept server-side per identity. */
function version2(t: StoreTables): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${t.preferences} (
      identity_id TEXT PRIMARY KEY,
      preferences_json TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
  ];
}

/**
 * Version 3: a run's termination reason (its `state` is now the ending's: `failed` for a run that
 * ended with failure or error). Added to a table of an earlier version only (SQLite has no
 * ADD COLUMN IF NOT EXISTS); rows stored before have none until `store rebuild` reads them again.
 */
function version3(t: StoreTables): string[] {
  return [`ALTER TABLE ${t.runs} ADD COLUMN termination_reason TEXT`];
}

/**
 * Version 4: how a run imported from a sealed export came in (`RunImport` as JSON); NULL for every
 * run the projection wrote from Temporal.
 */
function version4(t: StoreTables): string[] {
  return [`ALTER TABLE ${t.runs} ADD COLUMN imported_json TEXT`];
}

/**
 * Version 5: imported runs move to the imports' own id space (IMPORT_ID_PREFIX). A run imported
 * before was kept under the id its report named, which a live run may have or take; it now reads
 * as `import:legacy:<that id>` (its steps and its tree's links with it), so the id is the live
 * run's again. Plain SQL both databases read; new imports get derived ids (importRunId).
 */
function version5(t: StoreTables): string[] {
  const legacy = `imported_json IS NOT NULL AND run_id NOT LIKE 'import:%'`;
  const moved = (column: string) => `'import:legacy:' || ${column}`;
  return [
    `UPDATE ${t.steps} SET run_id = ${moved('run_id')} WHERE run_id IN (SELECT run_id FROM ${t.runs} WHERE ${legacy})`,
    `UPDATE ${t.runs} SET parent_run_id = ${moved('parent_run_id')}, root_run_id = ${moved('root_run_id')}, run_id = ${moved('run_id')} WHERE ${legacy}`,
  ];
}

/**
 * Version 6: what a run list shows and sorts by (issue 82): iterations used, the model that
 * answered its latest stored model call (and that call's step, so an earlier write never replaces
 * it), start-to-end time and all tokens; with an index per sort key inside a tenant. Rows stored
 * before get their tokens at once; their iterations, model and time are NULL (sorted last) until
 * `store rebuild` reads them again.
 */
function version6(t: StoreTables): string[] {
  return [
    `ALTER TABLE ${t.runs} ADD COLUMN iterations INTEGER`,
    `ALTER TABLE ${t.runs} ADD COLUMN model TEXT`,
    `ALTER TABLE ${t.runs} ADD COLUMN model_step INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE ${t.runs} ADD COLUMN duration_ms BIGINT`,
    `ALTER TABLE ${t.runs} ADD COLUMN total_tokens BIGINT NOT NULL DEFAULT 0`,
    // What the rows already hold: their tokens. Iterations and the model need their steps (a rebuild).
    `UPDATE ${t.runs} SET total_tokens = input_tokens + output_tokens`,
    ...RUN_SORT_COLUMNS.filter((column) => column !== 'started_at').map(
      (column) => `CREATE INDEX IF NOT EXISTS ${t.runs}_by_${column} ON ${t.runs} (tenant, ${column}, run_id)`,
    ),
  ];
}

/** The columns a run list sorts by, each indexed within a tenant (version 6; `started_at` by version 1's). */
export const RUN_SORT_COLUMNS = [
  'started_at',
  'duration_ms',
  'iterations',
  'total_tokens',
  'cost_usd',
  'model',
] as const;

/** Creates or upgrades the tables inside the caller's transaction (which holds the migration lock). */
export async function migrateStore(tx: SqlExecutor, tables: StoreTables, prefix: string): Promise<void> {
  for (const sql of tx.dialect.migrationLock(prefix)) await tx.query(sql);
  await tx.run(`CREATE TABLE IF NOT EXISTS ${tables.schema} (version INTEGER NOT NULL)`);
  const rows = await tx.query(`SELECT max(version) AS version FROM ${tables.schema}`);
  const current = rows[0]?.version == null ? 0 : Number(rows[0].version);
  if (current > STORE_SCHEMA_VERSION)
    throw new Error(
      `The chain store's schema is at version ${current}, newer than this Thoughtline knows (${STORE_SCHEMA_VERSION}): upgrade Thoughtline.`,
    );
  // Every statement is IF NOT EXISTS: run again, they add what an earlier build or version lacked.
  for (const sql of [...version1(tables), ...version2(tables)]) await tx.run(sql);
  if (current === STORE_SCHEMA_VERSION) return;
  if (current < 3) for (const sql of version3(tables)) await tx.run(sql);
  if (current < 4) for (const sql of version4(tables)) await tx.run(sql);
  if (current < 5) for (const sql of version5(tables)) await tx.run(sql);
  if (current < 6) for (const sql of version6(tables)) await tx.run(sql);
  await tx.run(`DELETE FROM ${tables.schema}`);
  await tx.run(`INSERT INTO ${tables.schema} (version) VALUES (?)`, [STORE_SCHEMA_VERSION]);
}
