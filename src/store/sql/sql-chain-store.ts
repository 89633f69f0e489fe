import type { ChainStatus, ReasoningChain, ReasoningStep } from '../../domain';
import { IncrementalChainView, type ViewFacts } from '../../domain/chain/chain-view';
import type { RunList, RunListPage, RunSearch, StepFilter, StoredRun, TenantUsage, UsageRow } from '../../domain/store';
import type { ViewerPreferences } from '../../domain/visibility';
import { readPreferences, writePreferences } from '../preferences/preferences-sql';
import { tenantUsage } from '../usage/tenant-usage-sql';
import type { ChainHead, ChainStore, RunCandidates, RunUpdate, StepRead, StoredHead, StoreScope } from '../chain-store';
import { RUN_COLUMNS, storedRunOf } from '../queries/run-row';
import { runSearchQuery, tenantCondition, visibleStepCondition } from '../queries/run-search-query';
import { encodeSearchCursor } from '../queries/search-cursor';
import { listCursorAfter, runListQuery } from '../queries/run-list-query';
import type { SqlDriver, SqlExecutor, SqlValue } from './sql-driver';
import { stepPageQuery } from '../queries/step-query';
import { STEP_COLUMNS, stepRow, utcTime } from '../queries/step-row';
import { UnknownStoredRunError } from '../store-errors';
import { compactFacts } from '../queries/compact-facts';
import { migrateStore, type StoreTables, storeTables } from './store-schema';

/** The tables' prefix unless told otherwise. */
export const DEFAULT_TABLE_PREFIX = 'thoughtline_';
/** Rows per INSERT (12 columns each: far under either database's bound-parameter limit). */
const INSERT_CHUNK = 50;
/** Steps named per run found by a text search. */
const MATCHED_STEPS = 5;

export interface SqlChainStoreOptions {
  tablePrefix?: string;
  /** The clock for `storedAt` and `behindSince` (tests fix it). */
  now?: () => Date;
}

const EMPTY_FACTS: ViewFacts = { calls: {}, values: [] };

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** Start to end in ms, once ended; null while it runs or when a time does not read. */
function durationMs(startedAt: string, endedAt: string | undefined): number | null {
  if (endedAt === undefined) return null;
  const ms = Date.parse(endedAt) - Date.parse(startedAt);
  return Number.isFinite(ms) ? Math.max(0, ms) : null;
}

/**
 * The chain store over any SqlDriver. Writes lock the run's row first, so two writers of one run
 * (two servers, or an event and a catch-up) take turns, and every aggregate is recomputed from the
 * stored steps inside the same transaction: a step written twice counts once.
 */
export class SqlChainStore implements ChainStore {
  private readonly tables: StoreTables;
  private readonly prefix: string;
  private readonly now: () => Date;

  constructor(
    private readonly driver: SqlDriver,
    options: SqlChainStoreOptions = {},
  ) {
    this.prefix = options.tablePrefix ?? DEFAULT_TABLE_PREFIX;
    this.tables = storeTables(this.prefix);
    this.now = options.now ?? (() => new Date());
  }

  get kind(): 'sqlite' | 'postgres' {
    return this.driver.kind;
  }

  get where(): string {
    return this.driver.where;
  }

  migrate(): Promise<void> {
    return this.driver.transaction((tx) => migrateStore(tx, this.tables, this.prefix));
  }

  async ping(): Promise<void> {
    await this.driver.query('SELECT 1 AS ok');
  }

  putRun(update: RunUpdate): Promise<void> {
    const { runs } = this.tables;
    const { steps: _steps, ...head } = update.head as ChainHead & { steps?: unknown };
    const stamp = this.now().toISOString();
    return this.driver.transaction(async (tx) => {
      // A bare row first, so the row lock below serialises writers even of a run neither has seen.
      await tx.run(
        `INSERT INTO ${runs} (run_id, agent_name, task, root_run_id, state, chain_status, started_at, stored_at, head_json, facts_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO NOTHING`,
        [
          update.runId,
          head.agentName,
          head.task,
          update.rootRunId ?? update.runId,
          update.state,
          head.status,
          utcTime(head.startedAt),
          stamp,
          '{}',
          JSON.stringify(EMPTY_FACTS),
        ],
      );
      const facts = await this.lockedFacts(tx, update.runId);
      const view = IncrementalChainView.fromFacts(facts);
      for (const record of head.approvals ?? []) view.addApproval(record);
      await tx.run(
        `UPDATE ${runs} SET agent_name = ?, task = ?, tenant = ?, caller_id = ?, parent_run_id = ?, root_run_id = ?,
           state = ?, termination_reason = ?, chain_status = ?, started_at = ?, ended_at = ?, duration_ms = ?, complete = ?, stored_at = ?,
           head_json = ?, facts_json = ?, imported_json = COALESCE(?, imported_json),
           temporal_gone = CASE WHEN ? = 1 THEN 1 ELSE temporal_gone END WHERE run_id = ?`,
        [
          head.agentName,
          head.task,
          head.caller?.tenant ?? null,
          head.caller?.id ?? null,
          update.parentRunId ?? null,
          update.rootRunId ?? update.runId,
          update.state,
          update.terminationReason ?? null,
          head.status,
          utcTime(head.startedAt),
          update.endedAt === undefined ? null : utcTime(update.endedAt),
          durationMs(head.startedAt, update.endedAt),
          update.complete ? 1 : 0,
          stamp,
          JSON.stringify(head),
          JSON.stringify(compactFacts(view.toFacts())),
          update.imported ? JSON.stringify(update.imported) : null,
          update.imported ? 1 : 0,
          update.runId,
        ],
      );
    });
  }

  async putSteps(runId: string, steps: readonly ReasoningStep[]): Promise<void> {
    if (steps.length === 0) return;
    const byNumber = new Map<number, ReasoningStep>();
    for (const step of steps) byNumber.set(step.stepNumber, step);
    const batch = [...byNumber.values()].sort((a, b) => a.stepNumber - b.stepNumber);
    const { runs, steps: stepsTable } = this.tables;
    await this.driver.transaction(async (tx) => {
      const locked = await tx.query(
        `SELECT facts_json, head_json FROM ${runs} WHERE run_id = ?${tx.dialect.forUpdate}`,
        [runId],
      );
      const [row] = locked;
      if (!row) throw new UnknownStoredRunError(runId);
      const facts = JSON.parse(String(row.facts_json)) as ViewFacts;
      const head = JSON.parse(String(row.head_json)) as Partial<ReasoningChain>;

      const calls = new Map<string, string>();
      for (const step of batch)
        if (step.type === 'tool_call') calls.set(step.toolCall.correlationId, step.toolCall.toolName);
      // A result whose call was stored by an earlier write: its tool, from that call's row.
      const resultCalls = batch.flatMap((s) =>
        s.type === 'tool_result' && !calls.has(s.toolResult.correlationId) ? [s.toolResult.correlationId] : [],
      );
      for (const ids of chunks([...new Set(resultCalls)], INSERT_CHUNK))
        for (const row of await tx.query(
          `SELECT call_id, tool FROM ${stepsTable} WHERE run_id = ? AND type = 'tool_call' AND call_id IN (${marks(ids.length)})`,
          [runId, ...ids],
        ))
          calls.set(String(row.call_id), String(row.tool));
      // Results stored before their call (writes out of order): they get its tool, and the views its sensitive fields.
      const batchNumbers = new Set(batch.map((s) => s.stepNumber));
      const earlierResults: ReasoningStep[] = [];
      const newCalls = batch.flatMap((s) => (s.type === 'tool_call' ? [s.toolCall.correlationId] : []));
      for (const ids of chunks(newCalls, INSERT_CHUNK))
        for (const row of await tx.query(
          `SELECT step_number, step_json FROM ${stepsTable} WHERE run_id = ? AND type = 'tool_result' AND call_id IN (${marks(ids.length)})`,
          [runId, ...ids],
        ))
          if (!batchNumbers.has(Number(row.step_number))) earlierResults.push(JSON.parse(String(row.step_json)));

      const rows = batch.map((step) => stepRow(runId, step, (callId) => calls.get(callId)));
      await this.insertSteps(tx, rows);
      for (const result of earlierResults)
        if (result.type === 'tool_result')
          await tx.run(`UPDATE ${stepsTable} SET tool = ? WHERE run_id = ? AND step_number = ? AND tool IS NULL`, [
            calls.get(result.toolResult.correlationId) ?? null,
            runId,
            result.stepNumber,
          ]);

      // Facts only grow: adding a step seen before changes nothing, so no step is checked for being new.
      const view = IncrementalChainView.fromFacts(facts);
      for (const step of [...batch, ...earlierResults]) view.add(step);
      for (const record of head.approvals ?? []) view.addApproval(record);
      await this.refreshAggregates(tx, runId, compactFacts(view.toFacts()));
      await this.noteListFacts(tx, runId, batch);
    });
  }

  /**
   * What a run list shows of the batch: the highest iteration, and the model of its latest model
   * reply. Each only moves forward (a step written again, or an earlier one late, changes nothing).
   */
  private async noteListFacts(tx: SqlExecutor, runId: string, batch: readonly ReasoningStep[]): Promise<void> {
    const iterations = Math.max(0, ...batch.map((step) => step.iteration ?? 0));
    // The batch is in step order: its last model reply is the latest.
    const reply = [...batch].reverse().find((step) => step.type === 'tool_result' && typeof step.model === 'string');
    await tx.run(
      `UPDATE ${this.tables.runs} SET iterations = CASE WHEN ? > COALESCE(iterations, -1) THEN ? ELSE iterations END,
         model = CASE WHEN ? > model_step THEN ? ELSE model END,
         model_step = CASE WHEN ? > model_step THEN ? ELSE model_step END
       WHERE run_id = ?`,
      [
        iterations,
        iterations,
        reply?.stepNumber ?? 0,
        reply?.model ?? null,
        reply?.stepNumber ?? 0,
        reply?.stepNumber ?? 0,
        runId,
      ],
    );
  }

  noteProgress(runId: string, chainStatus: ChainStatus, knownThroughStep: number): Promise<void> {
    const stamp = this.now().toISOString();
    return this.driver.transaction(async (tx) => {
      await tx.run(
        `UPDATE ${this.tables.runs} SET chain_status = ?,
           known_through = CASE WHEN known_through > ? THEN known_through ELSE ? END,
           behind_since = CASE WHEN ? > last_step THEN COALESCE(behind_since, ?) ELSE behind_since END
         WHERE run_id = ?`,
        [chainStatus, knownThroughStep, knownThroughStep, knownThroughStep, stamp, runId],
      );
    });
  }

  markBehind(runId: string, behind: boolean): Promise<void> {
    const { runs } = this.tables;
    const stamp = this.now().toISOString();
    return this.driver.transaction(async (tx) => {
      if (behind)
        await tx.run(`UPDATE ${runs} SET behind_since = COALESCE(behind_since, ?) WHERE run_id = ?`, [stamp, runId]);
      else await tx.run(`UPDATE ${runs} SET behind_since = NULL WHERE run_id = ?`, [runId]);
    });
  }

  markTemporalGone(runId: string): Promise<void> {
    return this.driver.transaction(async (tx) => {
      await tx.run(`UPDATE ${this.tables.runs} SET temporal_gone = 1 WHERE run_id = ?`, [runId]);
    });
  }

  async run(runId: string): Promise<StoredRun | undefined> {
    const rows = await this.driver.query(`SELECT ${RUN_COLUMNS} FROM ${this.tables.runs} WHERE run_id = ?`, [runId]);
    return rows[0] ? storedRunOf(rows[0]) : undefined;
  }

  async head(runId: string): Promise<StoredHead | undefined> {
    const rows = await this.driver.query(
      `SELECT ${RUN_COLUMNS}, head_json, facts_json FROM ${this.tables.runs} WHERE run_id = ?`,
      [runId],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      run: storedRunOf(row),
      head: JSON.parse(String(row.head_json)) as ChainHead,
      facts: JSON.parse(String(row.facts_json)) as ViewFacts,
    };
  }

  async steps(runId: string, read: StepRead): Promise<ReasoningStep[]> {
    const { sql, params } = stepPageQuery(
      this.tables.steps,
      this.driver.dialect,
      runId,
      read.afterStep,
      read.limit,
      read.filter as StepFilter | undefined,
    );
    const rows = await this.driver.query(sql, params);
    return rows.map((row) => JSON.parse(String(row.step_json)) as ReasoningStep);
  }

  async searchRuns(search: RunSearch, scope: StoreScope): Promise<RunCandidates> {
    // A tenant other than the caller's own narrows to nothing; it never widens.
    if (search.tenant !== undefined && search.tenant !== scope.tenant) return { runs: [] };
    const { sql, params, limit } = runSearchQuery(this.tables, this.driver.dialect, search, scope);
    const rows = await this.driver.query(sql, params);
    const page = rows.slice(0, limit).map(storedRunOf);
    const runs: RunCandidates['runs'] = [];
    for (const run of page)
      runs.push({
        run,
        matchedSteps: search.text === undefined ? [] : await this.matchedSteps(run.runId, search.text, scope),
      });
    const last = page[page.length - 1];
    return rows.length > limit && last
      ? { runs, next: encodeSearchCursor({ startedAt: last.startedAt, runId: last.runId }) }
      : { runs };
  }

  async listRuns(list: RunList, scope: StoreScope): Promise<RunListPage> {
    const { sql, params, limit } = runListQuery(this.tables, list, scope);
    const rows = await this.driver.query(sql, params);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      runs: page.map(storedRunOf),
      ...(rows.length > limit && last ? { next: listCursorAfter(list, last) } : {}),
    };
  }

  async usage(scope: StoreScope, from: string, to: string, agent?: string): Promise<UsageRow[]> {
    const tenant = tenantCondition(scope, 'tenant');
    const params: SqlValue[] = [...tenant.params, utcTime(from), utcTime(to)];
    if (agent !== undefined) params.push(agent);
    const rows = await this.driver.query(
      `SELECT substr(started_at, 1, 10) AS day, agent_name, count(*) AS runs, sum(step_count) AS steps,
         sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(cost_usd) AS cost_usd
       FROM ${this.tables.runs} WHERE ${tenant.sql} AND started_at >= ? AND started_at < ?
       ${agent === undefined ? '' : 'AND agent_name = ?'}
       GROUP BY substr(started_at, 1, 10), agent_name ORDER BY 1, 2`,
      params,
    );
    return rows.map((row) => ({
      day: String(row.day),
      agentName: String(row.agent_name),
      runs: Number(row.runs),
      steps: Number(row.steps),
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      costUsd: Number(row.cost_usd),
    }));
  }

  tenantUsage(tenant: string, from: string, to: string): Promise<TenantUsage> {
    return tenantUsage(this.driver, this.tables, tenant, from, to);
  }

  readPreferences(identityId: string): Promise<ViewerPreferences | undefined> {
    return readPreferences(this.driver, this.tables, identityId);
  }

  writePreferences(identityId: string, preferences: ViewerPreferences): Promise<void> {
    return writePreferences(this.driver, this.tables, identityId, preferences, this.now());
  }

  async lastWrite(): Promise<string | undefined> {
    const [row] = await this.driver.query(`SELECT MAX(stored_at) AS last FROM ${this.tables.runs}`, []);
    return row?.last === null || row?.last === undefined ? undefined : String(row.last);
  }

  async runIds(options: { incompleteOnly?: boolean; afterRunId?: string; limit: number }): Promise<string[]> {
    const { runs } = this.tables;
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (options.incompleteOnly) where.push('complete = 0');
    if (options.afterRunId !== undefined) {
      const found = await this.driver.query(`SELECT started_at FROM ${runs} WHERE run_id = ?`, [options.afterRunId]);
      // The page's last run was deleted meanwhile (retention): this pass ends; the next starts over.
      const [cursorRow] = found;
      if (!cursorRow) return [];
      const startedAt = String(cursorRow.started_at);
      where.push('(started_at > ? OR (started_at = ? AND run_id > ?))');
      params.push(startedAt, startedAt, options.afterRunId);
    }
    params.push(Math.max(0, Math.floor(options.limit)));
    const rows = await this.driver.query(
      `SELECT run_id FROM ${runs} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY started_at, run_id LIMIT ?`,
      params,
    );
    return rows.map((row) => String(row.run_id));
  }

  deleteEndedBefore(cutoff: string): Promise<number> {
    const { runs, steps } = this.tables;
    return this.driver.transaction(async (tx) => {
      const ended = await tx.query(
        `SELECT run_id FROM ${runs} WHERE ended_at IS NOT NULL AND ended_at < ? AND imported_json IS NULL${tx.dialect.forUpdate}`,
        [utcTime(cutoff)],
      );
      const ids = ended.map((row) => String(row.run_id));
      for (const chunk of chunks(ids, INSERT_CHUNK)) {
        await tx.run(`DELETE FROM ${steps} WHERE run_id IN (${marks(chunk.length)})`, chunk);
        await tx.run(`DELETE FROM ${runs} WHERE run_id IN (${marks(chunk.length)})`, chunk);
      }
      return ids.length;
    });
  }

  close(): Promise<void> {
    return this.driver.close();
  }

  private async lockedFacts(tx: SqlExecutor, runId: string): Promise<ViewFacts> {
    const rows = await tx.query(`SELECT facts_json FROM ${this.tables.runs} WHERE run_id = ?${tx.dialect.forUpdate}`, [
      runId,
    ]);
    const [row] = rows;
    if (!row) throw new UnknownStoredRunError(runId);
    return JSON.parse(String(row.facts_json)) as ViewFacts;
  }

  private async insertSteps(tx: SqlExecutor, rows: SqlValue[][]): Promise<void> {
    const { steps } = this.tables;
    const updates = STEP_COLUMNS.filter((c) => c !== 'run_id' && c !== 'step_number' && c !== 'tool')
      .map((c) => `${c} = excluded.${c}`)
      .join(', ');
    for (const chunk of chunks(rows, INSERT_CHUNK))
      await tx.run(
        `INSERT INTO ${steps} (${STEP_COLUMNS.join(', ')}) VALUES ${chunk.map(() => `(${marks(STEP_COLUMNS.length)})`).join(', ')}
         ON CONFLICT (run_id, step_number) DO UPDATE SET ${updates}, tool = COALESCE(excluded.tool, ${steps}.tool)`,
        chunk.flat(),
      );
  }

  /** Every aggregate from the stored steps (never incremented), the facts, and `behindSince` cleared once caught up. */
  private async refreshAggregates(tx: SqlExecutor, runId: string, facts: ViewFacts): Promise<void> {
    const { runs, steps } = this.tables;
    // One pass over the covering index, grouped small (types x tools x levels), folded here.
    const groups = await tx.query(
      `SELECT type, tool, level, count(*) AS n, max(step_number) AS last, sum(cost_usd) AS cost,
         sum(input_tokens) AS input, sum(output_tokens) AS output
       FROM ${steps} WHERE run_id = ? GROUP BY type, tool, level`,
      [runId],
    );
    const sums = { n: 0, last: 0, hidden: 0, cost: 0, input: 0, output: 0 };
    const toolSet = new Set<string>();
    for (const group of groups) {
      const n = Number(group.n);
      sums.n += n;
      sums.last = Math.max(sums.last, Number(group.last));
      if (group.level === 'hidden') sums.hidden += n;
      sums.cost += Number(group.cost);
      sums.input += Number(group.input);
      sums.output += Number(group.output);
      if (group.type === 'tool_call' && group.tool !== null && group.tool !== undefined)
        toolSet.add(String(group.tool));
    }
    const tools = [...toolSet].sort();
    const last = sums.last;
    await tx.run(
      `UPDATE ${runs} SET step_count = ?, last_step = ?, hidden_steps = ?, cost_usd = ?, input_tokens = ?,
         output_tokens = ?, total_tokens = ?, tools = ?, facts_json = ?, stored_at = ?,
         behind_since = CASE WHEN ? >= known_through THEN NULL ELSE behind_since END
       WHERE run_id = ?`,
      [
        sums.n,
        last,
        sums.hidden,
        sums.cost,
        sums.input,
        sums.output,
        sums.input + sums.output,
        JSON.stringify(tools),
        JSON.stringify(facts),
        this.now().toISOString(),
        last,
        runId,
      ],
    );
  }

  private async matchedSteps(runId: string, text: string, scope: StoreScope): Promise<number[]> {
    const rows = await this.driver.query(
      `SELECT s.step_number FROM ${this.tables.steps} s WHERE s.run_id = ? AND ${this.driver.dialect.contains('s.search_text')}${visibleStepCondition(scope, 's')}
       ORDER BY s.step_number LIMIT ${MATCHED_STEPS}`,
      [runId, text.toLowerCase()],
    );
    return rows.map((row) => Number(row.step_number));
  }
}
