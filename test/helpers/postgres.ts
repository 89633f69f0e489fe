import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/dev-server/free-port';

const RELATIVE = 'scripts/ensure-postgres.sh';
const SCRIPT = [path.resolve(__dirname, '../..', RELATIVE), path.resolve(RELATIVE)].find((file) => fs.existsSync(file)) ?? RELATIVE;

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
  stop(): Promise<void>;
}

/**
 * Starts a new cluster in a temporary folder (initdb `-A trust`, a free port, its unix socket in
 * that folder) and returns it; `stop()` stops it and deletes the folder. initdb refuses root, so
 * as root every server program runs as the `postgres` OS user, which the Debian package creates.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = execFileSync('bash', [SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 }).trim();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thoughtline-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (program: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : path.join(bin, program), asRoot ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
  const data = path.join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions']);
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', serverOptions, '-w', '-t', '30', 'start']);
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
