import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPostgresBin } from '../../../src/dev-server/cluster/database/cluster-postgres';
import { freePort } from '../../../src/dev-server/probes/free-port';

/** A throwaway PostgreSQL server for the engines that keep their state in it (DBOS, LangGraph). */
export interface BenchPostgres {
  url: string;
  /** The postmaster's pid: its children are the server's processes, counted for CPU and memory. */
  pid: number;
  version: string;
  stop(): void;
}

/**
 * Debian's PostgreSQL (installed by scripts/ensure-postgres.sh when missing) in a fresh folder,
 * on a free loopback port, with the server's default durability (fsync and synchronous commit
 * on), as DBOS and LangGraph run in production. As root, it runs as the `postgres` OS user.
 */
export async function startBenchPostgres(projectRoot: string): Promise<BenchPostgres> {
  const bin = await findPostgresBin(projectRoot);
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-peers-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (program: string, args: string[]): string =>
    execFileSync(
      asRoot ? 'runuser' : path.join(bin, program),
      asRoot ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : args,
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 },
    );
  const data = path.join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-instructions']);
  // Enough connections for a thousand concurrent runs' pools (DBOS and LangGraph each pool their own).
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300`;
  run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  const pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const version = run('postgres', ['--version']).trim();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    pid,
    version,
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
