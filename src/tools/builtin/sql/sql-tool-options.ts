import type { ToolOptions } from '../../define-tool';
import { positiveCap, type QueryCaps } from './query-result';
import { SQL_SUMMARY_TEMPLATE, SqlQueryInput } from './sql-input';

/** The `defineTool` options a sql tool passes through unchanged, plus the result caps. */
export type SqlToolOptions = Partial<
  Pick<
    ToolOptions<typeof SqlQueryInput, unknown>,
    | 'name'
    | 'description'
    | 'visibility'
    | 'approval'
    | 'approverRoles'
    | 'requiredRoles'
    | 'sensitiveFields'
    | 'summaryTemplate'
    | 'maxResultChars'
    | 'retry'
  >
> & {
  /** Rows returned at most; the result says `truncated: 'max_rows'` past it. Default 200, at most 10,000. */
  maxRows?: number;
  /** Bytes of row JSON returned at most; `truncated: 'max_bytes'` past it. Default 256 KiB, at most 16 MiB. */
  maxBytes?: number;
};

export const DEFAULT_MAX_ROWS = 200;
export const MAX_MAX_ROWS = 10_000;
export const DEFAULT_MAX_BYTES = 256 * 1024;
export const MAX_MAX_BYTES = 16 * 1024 * 1024;

/** The row and byte caps of a tool, checked once when it is defined. */
export function sqlCaps(options: SqlToolOptions): QueryCaps {
  return {
    maxRows: positiveCap('maxRows', options.maxRows, DEFAULT_MAX_ROWS, MAX_MAX_ROWS),
    maxBytes: positiveCap('maxBytes', options.maxBytes, DEFAULT_MAX_BYTES, MAX_MAX_BYTES),
  };
}

/**
 * What every sql tool is, whatever its database: `sql_query`, type `database`, read-only, no
 * approval by default, the query shown at `summary` visibility; then the options the caller set.
 */
export function sqlToolBase(options: SqlToolOptions, description: string) {
  return {
    name: options.name ?? 'sql_query',
    type: 'database' as const,
    effects: 'none' as const,
    approval: options.approval ?? 'never',
    description: options.description ?? description,
    input: SqlQueryInput,
    summaryTemplate: options.summaryTemplate ?? SQL_SUMMARY_TEMPLATE,
    ...sqlPassThrough(options),
  };
}

/** The `defineTool` options the caller set, and only those (defineTool supplies the defaults). */
function sqlPassThrough(options: SqlToolOptions): Partial<SqlToolOptions> {
  const { visibility, approverRoles, requiredRoles, sensitiveFields, maxResultChars, retry } = options;
  const chosen = { visibility, approverRoles, requiredRoles, sensitiveFields, maxResultChars, retry };
  return Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined));
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
