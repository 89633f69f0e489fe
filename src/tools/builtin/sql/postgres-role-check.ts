import type pg from 'pg';

/**
 * Rights of the tool's role (or of any role it may switch to with `set_config('role', …)`) that a
 * read-only transaction does not contain: with any of them a query can change something that
 * outlives its rollback. Each is refused unless the operator names it in `acceptRisks`.
 */
export const POSTGRES_RISKS = {
  superuser: 'SUPERUSER: every rule below, and more, is open to it',
  bypassrls: 'BYPASSRLS: reads rows that row-level security hides',
  createrole: 'CREATEROLE: can grant itself the rest',
  replication: 'REPLICATION: can read the whole write-ahead log',
  'server-files':
    'reads or writes server files or runs server programs (pg_read_server_files, pg_write_server_files, pg_execute_server_program, pg_read_file, lo_import, lo_export…)',
  'signal-backend': "pg_signal_backend: cancels or ends other roles' sessions",
  dblink: 'dblink: runs statements on its own connection, which commits',
  'logical-emit':
    'pg_logical_emit_message: writes to the write-ahead log, seen by change-data-capture consumers, whatever the rollback',
  adminpack: 'adminpack: writes server files',
} as const;
export type PostgresRisk = keyof typeof POSTGRES_RISKS;

/** The REVOKE or ALTER that removes each risk, for the refusal's text. */
const REMEDY: Record<PostgresRisk, (role: string) => string> = {
  superuser: (r) => `connect as a role without SUPERUSER (ALTER ROLE ${r} NOSUPERUSER)`,
  bypassrls: (r) => `ALTER ROLE ${r} NOBYPASSRLS`,
  createrole: (r) => `ALTER ROLE ${r} NOCREATEROLE`,
  replication: (r) => `ALTER ROLE ${r} NOREPLICATION`,
  'server-files': (r) =>
    `REVOKE pg_read_server_files, pg_write_server_files, pg_execute_server_program FROM ${r}, and EXECUTE on the file functions it was granted`,
  'signal-backend': (r) => `REVOKE pg_signal_backend FROM ${r}`,
  dblink: () => "REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA <dblink's schema> FROM PUBLIC (or DROP EXTENSION dblink)",
  'logical-emit': () =>
    'REVOKE EXECUTE ON FUNCTION pg_logical_emit_message FROM PUBLIC, every signature, as a superuser (docs/tools-sql.md has the script)',
  adminpack: () => 'DROP EXTENSION adminpack (or REVOKE EXECUTE on its functions)',
};

const SERVER_FILE_FUNCTIONS = [
  'pg_read_file',
  'pg_read_binary_file',
  'pg_ls_dir',
  'pg_stat_file',
  'lo_import',
  'lo_export',
];
const ADMINPACK_FUNCTIONS = ['pg_file_write', 'pg_file_rename', 'pg_file_unlink', 'pg_file_sync'];

/**
 * One query over the catalogs: the roles the connected role is a member of (itself included,
 * NOINHERIT too, since a query may switch to them), their attributes, the predefined roles, and
 * EXECUTE on the functions above for any of them.
 */
const RISK_QUERY = `
WITH mine AS (SELECT r.* FROM pg_roles r WHERE pg_has_role(current_user, r.oid, 'MEMBER')),
fns AS (SELECT DISTINCT p.proname FROM pg_proc p, mine m WHERE has_function_privilege(m.oid, p.oid, 'EXECUTE')
        AND (p.proname = ANY($1::text[]) OR p.proname = ANY($2::text[]) OR p.proname LIKE 'dblink%' OR p.proname = 'pg_logical_emit_message'))
SELECT current_user AS role,
  bool_or(m.rolsuper) AS superuser, bool_or(m.rolbypassrls) AS bypassrls,
  bool_or(m.rolcreaterole) AS createrole, bool_or(m.rolreplication) AS replication,
  bool_or(m.rolname IN ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program'))
    OR EXISTS (SELECT 1 FROM fns WHERE proname = ANY($1::text[])) AS server_files,
  bool_or(m.rolname = 'pg_signal_backend') AS signal_backend,
  EXISTS (SELECT 1 FROM fns WHERE proname LIKE 'dblink%') AS dblink,
  EXISTS (SELECT 1 FROM fns WHERE proname = 'pg_logical_emit_message') AS logical_emit,
  EXISTS (SELECT 1 FROM fns WHERE proname = ANY($2::text[])) AS adminpack
FROM mine m`;

interface RiskRow {
  role: string;
  superuser: boolean;
  bypassrls: boolean;
  createrole: boolean;
  replication: boolean;
  server_files: boolean;
  signal_backend: boolean;
  dblink: boolean;
  logical_emit: boolean;
  adminpack: boolean;
}

/** The risks the connected role holds, in POSTGRES_RISKS order. */
export async function postgresRoleRisks(
  client: Pick<pg.ClientBase, 'query'>,
): Promise<{ role: string; risks: PostgresRisk[] }> {
  const { rows } = await client.query<RiskRow>(RISK_QUERY, [SERVER_FILE_FUNCTIONS, ADMINPACK_FUNCTIONS]);
  const row = rows[0]!;
  const held: Record<PostgresRisk, boolean> = {
    superuser: row.superuser,
    bypassrls: row.bypassrls,
    createrole: row.createrole,
    replication: row.replication,
    'server-files': row.server_files,
    'signal-backend': row.signal_backend,
    dblink: row.dblink,
    'logical-emit': row.logical_emit,
    adminpack: row.adminpack,
  };
  return { role: row.role, risks: (Object.keys(POSTGRES_RISKS) as PostgresRisk[]).filter((risk) => held[risk]) };
}

/** Why the tool must not run as this role, or undefined: every risk held is one the operator accepted. */
export function roleRefusal(
  role: string,
  risks: readonly PostgresRisk[],
  accepted: ReadonlySet<PostgresRisk>,
): string | undefined {
  const refused = risks.filter((risk) => !accepted.has(risk));
  if (refused.length === 0) return undefined;
  const quoted = `"${role.replace(/"/g, '""')}"`;
  const lines = refused.map((risk) => `${risk} — ${POSTGRES_RISKS[risk]}; fix: ${REMEDY[risk](quoted)}`);
  return `The PostgreSQL role ${quoted} can do what a read-only query must not, so sql_query refuses to run as it: ${lines.join('. ')}. Or accept the risk knowingly with acceptRisks: [${refused.map((r) => `'${r}'`).join(', ')}].`;
}
