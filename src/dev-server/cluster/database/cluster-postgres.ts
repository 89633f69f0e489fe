import fs from 'node:fs';
import path from 'node:path';
import { describeFailure, runCommand } from '../../run-command';
import type { ClusterPaths } from '../cluster-paths';

/** The superuser initdb creates; Temporal and its SQL tool log in as it (trust authentication, loopback only). */
export const POSTGRES_USER = 'temporal';
/** PostgreSQL refuses to run as root, so as root every server program runs as the Debian package's `postgres` user. */
const RUN_AS = 'postgres';

const runsAsRoot = (): boolean => process.getuid?.() === 0;

/** The bin folder of the newest installed PostgreSQL server; scripts/ensure-postgres.sh installs Debian's package when none is (as root). */
export async function findPostgresBin(projectRoot: string): Promise<string> {
  const script = path.join(projectRoot, 'scripts', 'ensure-postgres.sh');
  const result = await runCommand('bash', [script]);
  if (result.exitCode !== 0) throw new Error(`PostgreSQL is missing: ${describeFailure(script, result)}`);
  // The script prints the folder on its last line; apt's chatter, if any, comes before.
  return result.output.trim().split('\n').at(-1)!;
}

async function runPostgresProgram(bin: string, program: string, args: string[]): Promise<void> {
  const file = path.join(bin, program);
  const result = runsAsRoot()
    ? await runCommand('runuser', ['-u', RUN_AS, '--', file, ...args])
    : await runCommand(file, args);
  if (result.exitCode !== 0) throw new Error(describeFailure(program, result));
}

/** Creates the data folder with initdb unless it holds a database already. Idempotent. */
export async function initPostgres(bin: string, paths: ClusterPaths): Promise<boolean> {
  fs.mkdirSync(paths.postgresDir, { recursive: true });
  if (runsAsRoot()) {
    await chownToPostgres(paths.postgresDir);
    await checkReachableByPostgres(paths.postgresDir);
  }
  if (fs.existsSync(path.join(paths.postgresData, 'PG_VERSION'))) return false;
  fs.rmSync(paths.postgresData, { recursive: true, force: true });
  await runPostgresProgram(bin, 'initdb', [
    '-D',
    paths.postgresData,
    '-U',
    POSTGRES_USER,
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-instructions',
  ]);
  return true;
}

/**
 * Starts the server on 127.0.0.1:`port` (and a Unix socket in its own folder) and waits until it
 * accepts connections. `synchronous_commit=off` makes commits return before the disk has them: a
 * crash may lose the last fraction of a second, never corrupt the database; four server roles on
 * two shared cores would otherwise wait on every fsync. Four roles' pools need more than the
 * default 100 connections.
 */
export async function startPostgres(bin: string, paths: ClusterPaths, port: number): Promise<void> {
  const options = [
    `-p ${port}`,
    `-k ${paths.postgresDir}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=300',
    '-c synchronous_commit=off',
  ].join(' ');
  await runPostgresProgram(bin, 'pg_ctl', [
    '-D',
    paths.postgresData,
    '-l',
    paths.postgresLog,
    '-o',
    options,
    '-w',
    '-t',
    '60',
    'start',
  ]);
}

/** Stops the server of this data folder (pg_ctl finds it by the folder's postmaster.pid); nothing when none runs. */
export async function stopPostgres(bin: string, paths: ClusterPaths): Promise<void> {
  if (postgresPid(paths) === undefined) return;
  await runPostgresProgram(bin, 'pg_ctl', ['-D', paths.postgresData, '-m', 'fast', '-w', '-t', '60', 'stop']);
}

/** The postmaster's pid from its data folder, when it has one running. */
export function postgresPid(paths: ClusterPaths): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(paths.postgresData, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

async function chownToPostgres(dir: string): Promise<void> {
  const result = await runCommand('chown', ['-R', `${RUN_AS}:${RUN_AS}`, dir]);
  if (result.exitCode !== 0)
    throw new Error(`could not hand ${dir} to the ${RUN_AS} user: ${describeFailure('chown', result)}`);
}

/** Every folder above the data folder must let the `postgres` user through, or initdb fails with a bare "permission denied". */
async function checkReachableByPostgres(dir: string): Promise<void> {
  const result = await runCommand('runuser', ['-u', RUN_AS, '--', 'test', '-w', dir]);
  if (result.exitCode !== 0) {
    throw new Error(
      `the ${RUN_AS} user cannot write to ${dir}: a folder above it is closed to other users ` +
        '(PostgreSQL refuses to run as root); open it (chmod o+x) or use a checkout outside /root',
    );
  }
}
