import type { ToolOptions } from '../../define-tool';
import { positiveCap, type QueryCaps } from './query-result';
import type { SqlQueryInput } from './sql-input';

/** The `defineTool` options a sql tool passes through unchanged, plus the result caps. */
export type SqlToolOptions = Partial<
  Pick<
    ToolOptions<typeof SqlQueryInput, unknown>,
    'name' | 'description' | 'visibility' | 'approval' | 'approverRoles' | 'requiredRoles' | 'sensitiveFields' | 'summaryTemplate' | 'maxResultChars' | 'retry'
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

/** The `defineTool` options the caller set, and only those (defineTool supplies the defaults). */
export function sqlPassThrough(options: SqlToolOptions): Partial<SqlToolOptions> {
  const { visibility, approverRoles, requiredRoles, sensitiveFields, maxResultChars, retry } = options;
  const chosen = { visibility, approverRoles, requiredRoles, sensitiveFields, maxResultChars, retry };
  return Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined));
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
