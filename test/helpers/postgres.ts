import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startOnFreePort } from '../../src/dev-server/probes/start-on-free-port';

const RELATIVE = 'scripts/ensure-postgres.sh';
const SCRIPT =
  [path.resolve(__dirname, '../..', RELATIVE), path.resolve(RELATIVE)].find((file) => fs.existsSync(file)) ?? RELATIVE;

/** A throwaway PostgreSQL cluster on 127.0.0.1, owned by the `postgres` OS user when the tests run as root. */
export interface TestPostgres {
  host: string;
  port: number;
  /** Connects as the cluster's superuser `postgres` (trust authentication: no password). */
  superuserUrl: string;
  /** A connection string for `user` on database `postgres`. */
  urlFor(user: string): string;
  /** Runs SQL as the superuser on a fresh connection. */
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(sql: string): Promise<pg.QueryResult<Row>>;
  /** Stops the server (the database down) and starts it again on the same port and data. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/**
 * Starts a new cluster in a temporary folder (initdb `-A trust`, a free port, its unix socket in
 * that folder) and returns it; `stop()` stops it and deletes the folder. initdb refuses root, so
 * as root every server program runs as the `postgres` OS user, which the Debian package creates.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = clearly(
    'PostgreSQL is not installed and could not be installed (scripts/ensure-postgres.sh, run as root)',
    () =>
      execFileSync('bash', [SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 }).trim(),
  );
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (program: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : path.join(bin, program),
      asRoot ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : args,
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      },
    );
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const failed = `The test PostgreSQL cluster in ${dir} could not start`;
  clearly(failed, () => run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions']));
  let serverOptions = '';
  const port = await startOnFreePort((free) => {
    serverOptions = `-p ${free} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    clearly(failed, () => run('pg_ctl', ['-D', data, '-l', log, '-o', serverOptions, '-w', '-t', '30', 'start']), log);
  }, log);
  const urlFor = (user: string) => `postgresql://${encodeURIComponent(user)}@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    host: '127.0.0.1',
    port,
    superuserUrl: urlFor('postgres'),
    urlFor,
    async query(sql) {
      const client = new pg.Client({ connectionString: urlFor('postgres') });
      await client.connect();
      try {
        return await client.query(sql);
      } finally {
        await client.end();
      }
    },
    pause() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    resume() {
      run('pg_ctl', ['-D', data, '-l', log, '-o', serverOptions, '-w', '-t', '30', 'start']);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs `step`; on failure throws one error that says what failed, with the program's stderr and the server log's tail. */
function clearly<T>(what: string, step: () => T, log?: string): T {
  try {
    return step();
  } catch (error) {
    const stderr = (error as { stderr?: Buffer | string }).stderr?.toString().trim();
    const tail = log && fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').slice(-20).join('\n') : '';
    throw new Error(
      [`${what}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, stderr, tail]
        .filter(Boolean)
        .join('\n'),
    );
  }
}

/**
 * Revokes from PUBLIC the one function PostgreSQL grants every role that writes past a rollback
 * (docs/tools-sql.md, "The role to create"): every signature, which differs between versions.
 */
export const REVOKE_LOGICAL_EMIT = `DO $$ DECLARE f regprocedure; BEGIN
  FOR f IN SELECT oid::regprocedure FROM pg_proc WHERE proname = 'pg_logical_emit_message' LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
  END LOOP; END $$;`;
