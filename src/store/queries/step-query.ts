import type { StepFilter } from '../../domain/store';
import type { SqlDialect, SqlValue } from '../sql/sql-driver';
import { utcTime } from './step-row';

/** The SELECT of one page of a run's raw steps: served by the (run_id, step_number) primary key. */
export function stepPageQuery(
  stepsTable: string,
  dialect: SqlDialect,
  runId: string,
  afterStep: number,
  limit: number,
  filter: StepFilter = {},
): { sql: string; params: SqlValue[] } {
  const where = ['run_id = ?', 'step_number > ?'];
  const params: SqlValue[] = [runId, Math.max(0, Math.floor(afterStep))];
  if (filter.types?.length) {
    where.push(`type IN (${filter.types.map(() => '?').join(', ')})`);
    params.push(...filter.types);
  }
  if (filter.tool !== undefined) {
    where.push('tool = ?');
    params.push(filter.tool);
  }
  if (filter.from !== undefined) {
    where.push('ts >= ?');
    params.push(utcTime(filter.from));
  }
  if (filter.to !== undefined) {
    where.push('ts <= ?');
    params.push(utcTime(filter.to));
  }
  if (filter.text !== undefined) {
    where.push(dialect.contains('search_text'));
    params.push(filter.text.toLowerCase());
  }
  params.push(Math.max(0, Math.floor(limit)));
  return {
    sql: `SELECT step_json FROM ${stepsTable} WHERE ${where.join(' AND ')} ORDER BY step_number LIMIT ?`,
    params,
  };
}
