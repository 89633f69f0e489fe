export { createSqliteQueryTool, type SqliteQueryToolOptions } from './sqlite-query-tool';
export { createPostgresQueryTool, type PostgresQueryToolOptions } from './postgres-query-tool';
export { SqlQueryInput } from './sql-input';
export type { SqlQueryResult } from './query-result';
export type { SqlToolOptions } from './sql-tool-options';
export type { PostgresConnectionOptions } from './postgres-connection';
export { POSTGRES_RISKS, type PostgresRisk } from './postgres-role-check';
