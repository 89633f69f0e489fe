import { loadPg } from '../../../packaging/load-pg';
import { describeFailure, runCommand } from '../../run-command';
import type { ServerBinaryPaths } from '../cluster-paths';
import { POSTGRES_USER } from './cluster-postgres';

const FEATURE = "The cluster's Postgres";

/** The two databases of development-postgres12.yaml: history and the rest, and visibility. */
export const TEMPORAL_DATABASES = [
  { name: 'temporal', schemaDir: (b: ServerBinaryPaths) => b.temporalSchemaDir },
  { name: 'temporal_visibility', schemaDir: (b: ServerBinaryPaths) => b.visibilitySchemaDir },
] as const;

/** One query on `database` of the cluster's PostgreSQL, its rows read by `read`. */
export async function askPostgres<T>(
  port: number,
  database: string,
  sql: string,
  params: unknown[],
  read: (rows: unknown[]) => T,
): Promise<T> {
  const client = new (loadPg(FEATURE).Client)({ host: '127.0.0.1', port, user: POSTGRES_USER, database });
  await client.connect();
  try {
    return read((await client.query(sql, params)).rows);
  } finally {
    await client.end();
  }
}

/**
 * Creates both databases and brings their schemas to the version the binaries were built with,
 * as an operator would with the SQL tool: `create-database`, `setup-schema -v 0.0` (the version
 * table only), `update-schema -d <versioned>`. Each step is skipped when already done, so a
 * restart on an existing data folder only applies what is new.
 */
export async function setUpSchemas(
  binaries: ServerBinaryPaths,
  port: number,
  log: (line: string) => void,
): Promise<void> {
  for (const db of TEMPORAL_DATABASES) {
    const sqlTool = async (...command: string[]): Promise<void> => {
      const args = [
        '--ep',
        '127.0.0.1',
        '-p',
        String(port),
        '-u',
        POSTGRES_USER,
        '--pl',
        'postgres12',
        '--db',
        db.name,
        ...command,
      ];
      const result = await runCommand(binaries.sqlTool, args);
      if (result.exitCode !== 0)
        throw new Error(`schema of ${db.name}: ${describeFailure(`temporal-sql-tool ${command[0]}`, result)}`);
    };
    const exists = await askPostgres(
      port,
      'postgres',
      'SELECT 1 FROM pg_database WHERE datname = $1',
      [db.name],
      (r) => r.length > 0,
    );
    if (!exists) await sqlTool('create-database');
    const versioned = await askPostgres(
      port,
      db.name,
      "SELECT to_regclass('schema_version') IS NOT NULL AS ok",
      [],
      (r) => Boolean((r[0] as { ok: boolean }).ok),
    );
    if (!versioned) await sqlTool('setup-schema', '-v', '0.0');
    await sqlTool('update-schema', '-d', db.schemaDir(binaries));
    log(`database ${db.name}: schema up to date`);
  }
}
