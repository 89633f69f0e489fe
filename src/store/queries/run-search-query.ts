import type { RunSearch } from '../../domain/store';
import { MAX_SEARCH_PAGE } from '../../domain/store';
import type { StoreScope } from '../chain-store';
import { RUN_COLUMNS } from './run-row';
import { decodeSearchCursor } from './search-cursor';
import type { SqlDialect, SqlValue } from '../sql/sql-driver';
import type { StoreTables } from '../sql/store-schema';
import { utcTime } from './step-row';

/** Steps a role's view shows: the auditor's all, the others' none of the hidden ones. */
export const visibleStepCondition = (scope: StoreScope, alias: string): string =>
  scope.role === 'auditor' ? '' : ` AND ${alias}.level <> 'hidden'`;

/** The tenant clause every run read carries: the scope's tenant, never the search's. */
export function tenantCondition(scope: StoreScope, column: string): { sql: string; params: SqlValue[] } {
  return scope.tenant === null
    ? { sql: `${column} IS NULL`, params: [] }
    : { sql: `${column} = ?`, params: [scope.tenant] };
}

/**
 * The SELECT of one page of runs found, newest start first, one more than the page to tell
 * whether there is a next. Always inside the scope's tenant; tool and text look only at steps the
 * scope's role sees.
 */
export function runSearchQuery(
  tables: StoreTables,
  dialect: SqlDialect,
  search: RunSearch,
  scope: StoreScope,
): { sql: string; params: SqlValue[]; limit: number } {
  const tenant = tenantCondition(scope, 'r.tenant');
  const where = [tenant.sql];
  const params: SqlValue[] = [...tenant.params];
  const add = (sql: string, ...values: SqlValue[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (!search.includeSubAgents) add('r.parent_run_id IS NULL');
  if (search.agent !== undefined) add('r.agent_name = ?', search.agent);
  if (search.caller !== undefined) add('r.caller_id = ?', search.caller);
  if (search.state !== undefined) add('r.state = ?', search.state);
  if (search.reason !== undefined) add('r.termination_reason = ?', search.reason);
  if (search.minCostUsd !== undefined) add('r.cost_usd >= ?', search.minCostUsd);
  if (search.maxCostUsd !== undefined) add('r.cost_usd <= ?', search.maxCostUsd);
  if (search.startedAfter !== undefined) add('r.started_at >= ?', utcTime(search.startedAfter));
  if (search.startedBefore !== undefined) add('r.started_at < ?', utcTime(search.startedBefore));
  const visible = visibleStepCondition(scope, 's');
  if (search.tool !== undefined)
    add(`EXISTS (SELECT 1 FROM ${tables.steps} s WHERE s.run_id = r.run_id AND s.tool = ?${visible})`, search.tool);
  if (search.text !== undefined)
    add(
      `(${dialect.contains('lower(r.task)')} OR EXISTS (SELECT 1 FROM ${tables.steps} s WHERE s.run_id = r.run_id AND ${dialect.contains('s.search_text')}${visible}))`,
      search.text.toLowerCase(),
      search.text.toLowerCase(),
    );
  if (search.cursor !== undefined) {
    const at = decodeSearchCursor(search.cursor);
    add('(r.started_at < ? OR (r.started_at = ? AND r.run_id < ?))', at.startedAt, at.startedAt, at.runId);
  }
  const limit = Math.min(MAX_SEARCH_PAGE, Math.max(1, Math.floor(search.limit ?? 20)));
  const columns = RUN_COLUMNS.split(', ')
    .map((column) => `r.${column}`)
    .join(', ');
  return {
    sql: `SELECT ${columns} FROM ${tables.runs} r WHERE ${where.join(' AND ')} ORDER BY r.started_at DESC, r.run_id DESC LIMIT ?`,
    params: [...params, limit + 1],
    limit,
  };
}
