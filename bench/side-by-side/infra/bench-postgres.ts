import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findPostgresBin } from '../../../src/dev-server/cluster/database/cluster-postgres';
import { startOnFreePort } from '../../../src/dev-server/probes/start-on-free-port';

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
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]] : [path.join(bin, program), args];
  const options = { encoding: 'utf8', timeout: 60_000 } as const;
  // Not blocking while it starts: the caller starts other servers meanwhile.
  const run = async (program: string, args: string[]): Promise<string> =>
    (await promisify(execFile)(...command(program, args), options)).stdout;
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-instructions']);
  // Enough connections for a thousand concurrent runs' pools (DBOS and LangGraph each pool their own).
  const port = await startOnFreePort(async (free) => {
    const serverOptions = `-p ${free} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300`;
    try {
      await run('pg_ctl', ['-D', data, '-l', log, '-o', serverOptions, '-w', '-t', '60', 'start']);
    } catch (error) {
      // pg_ctl only says "Examine the log output": the log says why.
      const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').slice(-10).join('\n') : '';
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${tail}`, { cause: error });
    }
  }, log);
  const pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const version = (await run('postgres', ['--version'])).trim();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    pid,
    version,
    stop: () => {
      try {
        execFileSync(...command('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']), options);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
