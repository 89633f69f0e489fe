import { z } from 'zod';

/** Longest query text accepted; a longer one is refused before it reaches the database. */
export const MAX_SQL_CHARS = 20_000;
/** Most bound parameters per query. */
export const MAX_PARAMS = 100;

/** The arguments of every sql query tool: one statement and its positional parameters. */
export const SqlQueryInput = z.object({
  sql: z.string().min(1).max(MAX_SQL_CHARS).describe('One read-only SQL statement (SELECT, WITH … SELECT, VALUES).'),
  params: z
    .array(z.union([z.string().max(MAX_SQL_CHARS), z.number(), z.boolean(), z.null()]))
    .max(MAX_PARAMS)
    .optional()
    .describe('Positional parameters for $1, $2, … (PostgreSQL) or ? (SQLite).'),
});
export type SqlQueryInput = z.output<typeof SqlQueryInput>;

/** Shown at `summary` visibility: the query itself, clipped to 200 characters by the renderer. */
export const SQL_SUMMARY_TEMPLATE = 'SQL: {sql}';
