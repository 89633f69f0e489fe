/** A value a statement binds: the store keeps booleans as 0/1 and JSON as text. */
export type SqlValue = string | number | null;

export type SqlRow = Record<string, unknown>;

/**
 * The little the chain store needs of a database, so one SQL implementation serves SQLite and
 * PostgreSQL. Statements use `?` placeholders (PostgreSQL's driver numbers them). Every method
 * rejects with a `StoreDatabaseError` naming the store when the database fails.
 */
export interface SqlDriver {
  readonly kind: 'sqlite' | 'postgres';
  readonly where: string;
  /** The SQL dialect's few differences. */
  readonly dialect: SqlDialect;
  query(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
  /** Runs a statement; resolves to the rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /**
   * Runs `work` in one write transaction, committed when it resolves and rolled back when it
   * rejects. Writers of one run are serialised: SQLite by its write lock (taken at BEGIN) and a
   * per-file lock in this process, PostgreSQL by the row lock `dialect.forUpdate` takes.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type SqlExecutor = Pick<SqlDriver, 'query' | 'run' | 'dialect'>;

export interface SqlDialect {
  /** True when `haystack` (a column) contains the bound needle: `instr` or `strpos`. */
  contains(haystack: string): string;
  /** The value at `path` (constant identifiers) in a JSON text column, NULL when absent: `json_extract` or `#>>`. */
  jsonField(column: string, path: readonly string[]): string;
  /** Appended to a SELECT that must lock its rows until the transaction ends ('' where BEGIN locked already). */
  forUpdate: string;
  /** Statements that keep two migrations from running at once, first in the migration's transaction. */
  migrationLock(prefix: string): string[];
}
