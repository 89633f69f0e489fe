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

/** Columns a run may lack (running, or stored before schema version 6): those sort last. */
const NULLABLE = new Set(['duration_ms', 'iterations', 'model']);

/**
 * Where a page ended: the sort and order it was for, whether its last run lacked the value, the
 * value (a string for `model` and `started`, else a number), and the run's id.
 */
type Position = [sort: RunSortKey, order: 'asc' | 'desc', missing: 0 | 1, value: string | number | null, runId: string];

export function encodeListCursor(position: Position): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** A cursor back to its position for `list`'s sort and order; anything else (another sort's, a forged one) is refused. */
export function decodeListCursor(cursor: string, list: Pick<RunList, 'sort' | 'order'>): Position {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadSearchCursorError();
  }
  const textual = list.sort === 'model' || list.sort === 'started';
  if (
    !Array.isArray(value) ||
    value.length !== 5 ||
    value[0] !== list.sort ||
    value[1] !== list.order ||
    (value[2] !== 0 && value[2] !== 1) ||
    !(value[2] === 1 ? value[3] === null : typeof value[3] === (textual ? 'string' : 'number')) ||
    typeof value[4] !== 'string'
  )
    throw new BadSearchCursorError();
  return value as Position;
}

/** The cursor after `row`, for the list's sort. */
export function listCursorAfter(list: RunList, row: Record<string, unknown>): string {
  const raw = row[SORT_COLUMN[list.sort]];
  const textual = list.sort === 'model' || list.sort === 'started';
  return encodeListCursor(
    raw === null || raw === undefined
      ? [list.sort, list.order, 1, null, String(row.run_id)]
      : [list.sort, list.order, 0, textual ? String(raw) : Number(raw), String(row.run_id)],
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
  // The model that answered, of an ended run (as visibility's list reads it).
  if (list.model !== undefined) add('r.model = ? AND r.ended_at IS NOT NULL', list.model);
  if (list.minIterations !== undefined) add('r.iterations >= ?', list.minIterations);
  if (list.minCostUsd !== undefined) add('r.cost_usd >= ?', list.minCostUsd);
  if (list.startedAfter !== undefined) add('r.started_at > ?', utcTime(list.startedAfter));
  if (list.startedBefore !== undefined) add('r.started_at < ?', utcTime(list.startedBefore));
  const column = `r.${SORT_COLUMN[list.sort]}`;
  const after = list.order === 'desc' ? '<' : '>';
  if (list.cursor !== undefined) {
    const [, , missing, value, runId] = decodeListCursor(list.cursor, list);
    if (missing === 1) add(`(${column} IS NULL AND r.run_id ${after} ?)`, runId);
    else if (!NULLABLE.has(SORT_COLUMN[list.sort]))
      add(`(${column} ${after} ? OR (${column} = ? AND r.run_id ${after} ?))`, value, value, runId);
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
  // NULLS LAST only where a value may be missing: on a NOT NULL column it would keep PostgreSQL
  // from reading its index backwards for a descending page.
  const nulls = NULLABLE.has(SORT_COLUMN[list.sort]) ? ' NULLS LAST' : '';
  const columns = RUN_COLUMNS.split(', ')
    .map((c) => `r.${c}`)
    .join(', ');
  return {
    sql: `SELECT ${columns} FROM ${tables.runs} r WHERE ${where.join(' AND ')} ORDER BY ${column} ${direction}${nulls}, r.run_id ${direction} LIMIT ?`,
    params: [...params, limit + 1],
    limit,
  };
}
