import type { RunList, RunSortKey } from '../../domain/store';
import type { StoreScope } from '../chain-store';
import type { SqlValue } from '../sql/sql-driver';
import type { StoreTables } from '../sql/store-schema';
import { RUN_COLUMNS } from './run-row';
import { tenantCondition } from './run-search-query';
import { BadSearchCursorError } from '../store-errors';
import { utcTime } from './step-row';

/** The column each sort key orders by (each indexed within a tenant, store-schema version 6). */
const SORT_COLUMN: Record<RunSortKey, string> = {
  started: 'started_at',
  took: 'duration_ms',
  iterations: 'iterations',
  tokens: 'total_tokens',
  cost: 'cost_usd',
  model: 'model',
};

/** Where a page ended: whether its last run lacked the value, the value, and the run's id. */
type Position = [missing: 0 | 1, value: string | number | null, runId: string];

export function encodeListCursor(position: Position): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** A cursor back to its position; anything this store did not write is refused. */
export function decodeListCursor(cursor: string): Position {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadSearchCursorError();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    (value[0] !== 0 && value[0] !== 1) ||
    !(typeof value[1] === 'string' || typeof value[1] === 'number' || value[1] === null) ||
    typeof value[2] !== 'string'
  )
    throw new BadSearchCursorError();
  return value as Position;
}

/** The cursor after `row`, for the list's sort. */
export function listCursorAfter(list: RunList, row: Record<string, unknown>): string {
  const value = row[SORT_COLUMN[list.sort]];
  return encodeListCursor(
    value === null || value === undefined
      ? [1, null, String(row.run_id)]
      : [0, value as string | number, String(row.run_id)],
  );
}

/**
 * The SELECT of one page of the scope's root runs in the list's order, one more than the page to
 * tell whether there is a next. Runs without the value come last (`NULLS LAST`, both databases),
 * ties by id in the same direction; the cursor continues strictly after the last row.
 */
export function runListQuery(
  tables: StoreTables,
  list: RunList,
  scope: StoreScope,
): { sql: string; params: SqlValue[]; limit: number } {
  const tenant = tenantCondition(scope, 'r.tenant');
  const where = [tenant.sql, 'r.parent_run_id IS NULL'];
  const params: SqlValue[] = [...tenant.params];
  const add = (sql: string, ...values: SqlValue[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (list.state !== undefined) add('r.state = ?', list.state);
  if (list.reason !== undefined) add('r.termination_reason = ?', list.reason);
  if (list.agent !== undefined) add('r.agent_name = ?', list.agent);
  if (list.model !== undefined) add('r.model = ?', list.model);
  if (list.minIterations !== undefined) add('r.iterations >= ?', list.minIterations);
  if (list.minCostUsd !== undefined) add('r.cost_usd >= ?', list.minCostUsd);
  if (list.startedAfter !== undefined) add('r.started_at >= ?', utcTime(list.startedAfter));
  if (list.startedBefore !== undefined) add('r.started_at < ?', utcTime(list.startedBefore));
  const column = `r.${SORT_COLUMN[list.sort]}`;
  const after = list.order === 'desc' ? '<' : '>';
  if (list.cursor !== undefined) {
    const [missing, value, runId] = decodeListCursor(list.cursor);
    if (missing === 1) add(`(${column} IS NULL AND r.run_id ${after} ?)`, runId);
    else
      add(
        `((${column} IS NOT NULL AND (${column} ${after} ? OR (${column} = ? AND r.run_id ${after} ?))) OR ${column} IS NULL)`,
        value,
        value,
        runId,
      );
  }
  const limit = Math.max(1, Math.floor(list.limit));
  const direction = list.order === 'desc' ? 'DESC' : 'ASC';
  const columns = RUN_COLUMNS.split(', ')
    .map((c) => `r.${c}`)
    .join(', ');
  return {
    sql: `SELECT ${columns} FROM ${tables.runs} r WHERE ${where.join(' AND ')} ORDER BY ${column} ${direction} NULLS LAST, r.run_id ${direction} LIMIT ?`,
    params: [...params, limit + 1],
    limit,
  };
}
