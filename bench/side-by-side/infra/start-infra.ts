import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { createBenchContext, type BenchContext } from '../../lib/bench-context';
import { startBenchServer, type BenchServer } from '../../lib/bench-server';
import { startBenchPostgres, type BenchPostgres } from './bench-postgres';

/** Every server the engines need, started once for the whole benchmark and shared. */
export interface SideBySideInfra {
  temporal: BenchContext;
  /** A client of the current dev server (renewTemporal replaces it). */
  temporalClient: Client;
  temporalPid?: number;
  postgres?: BenchPostgres;
  restate?: { ingress: string; admin: string; pid: number; stop(): Promise<void> | void };
  /** What each engine's request carries as `infra`. */
  request(workDir: string): Record<string, unknown>;
  /**
   * A new in-memory dev server in place of the old one, between scenarios: the old one holds every
   * earlier run's history in memory (hundreds of MB after the long and large runs; one crashed).
   */
  renewTemporal(): Promise<void>;
  versions: Record<string, string>;
  errors: string[];
  stop(): Promise<void>;
}

const packageVersion = (peersDir: string, name: string): string =>
  (
    JSON.parse(fs.readFileSync(path.join(peersDir, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/** The pid of the process whose command line holds every one of `parts` (Linux /proc). */
export function pidByCommandLine(parts: readonly string[]): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (parts.every((p) => cmd.includes(p))) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

/**
 * Temporal's dev server (with Thoughtline's search attributes and one workflow bundle), Debian's
 * PostgreSQL and restate-server, as each engine's docs run them on one machine, started side by
 * side (each mostly waits on its own process). restate-server comes from the peers' packages: it
 * starts once `peersInstalled` resolves, so a caller may install them meanwhile. A server that
 * cannot start fails only the engines that need it.
 */
export async function startInfra(
  projectRoot: string,
  peersDir: string,
  workDir: string,
  log: (line: string) => void,
  needs: { postgres: boolean; restate: boolean },
  peersInstalled: Promise<unknown> = Promise.resolve(),
): Promise<SideBySideInfra> {
  const errors: string[] = [];
  const [started, postgresStart, restateStart] = await Promise.allSettled([
    createBenchContext(log),
    needs.postgres ? startBenchPostgres(projectRoot) : undefined,
    needs.restate ? peersInstalled.then(() => startRestate(peersDir, workDir)) : undefined,
  ]);
  const postgres = postgresStart.status === 'fulfilled' ? postgresStart.value : undefined;
  const restate = restateStart.status === 'fulfilled' ? restateStart.value : undefined;
  if (started.status === 'rejected') {
    // Nothing runs without Temporal: the others stop rather than outlive the caller.
    await restate?.stop();
    postgres?.stop();
    throw started.reason;
  }
  const temporal = started.value;
  const port = temporal.server.address.split(':').at(-1)!;
  const temporalPid = pidByCommandLine(['start-dev', port]);
  const versions: Record<string, string> = { temporal: temporal.server.cliVersion.split('\n')[0]! };
  if (postgres) {
    versions['postgres'] = postgres.version;
    log(`PostgreSQL at ${postgres.url}`);
  } else if (postgresStart.status === 'rejected')
    errors.push(`PostgreSQL did not start: ${message(postgresStart.reason)}`);
  if (restate) {
    versions['restate-server'] = packageVersion(peersDir, '@restatedev/restate-server');
    log(`restate-server at ${restate.ingress}`);
  } else if (restateStart.status === 'rejected')
    errors.push(`restate-server did not start: ${message(restateStart.reason)}`);
  let server: BenchServer = temporal.server;
  let connection: Connection | undefined;
  const infra: SideBySideInfra = {
    temporal,
    temporalClient: temporal.client,
    ...(temporalPid ? { temporalPid } : {}),
    ...(postgres ? { postgres } : {}),
    ...(restate ? { restate } : {}),
    versions,
    errors,
    request: (dir) => ({
      temporal: {
        address: server.address,
        namespace: server.namespace,
        bundlePath: temporal.bundlePath,
      },
      ...(postgres ? { postgresUrl: postgres.url } : {}),
      ...(restate ? { restate: { ingress: restate.ingress, admin: restate.admin } } : {}),
      workDir: dir,
    }),
    async renewTemporal() {
      // The first server belongs to the bench context (closed at the end); later ones to this.
      if (server !== temporal.server) await server.stop();
      await connection?.close();
      server = await startBenchServer(log);
      connection = await Connection.connect({ address: server.address });
      infra.temporalClient = new Client({ connection, namespace: server.namespace });
      const pid = pidByCommandLine(['start-dev', server.address.split(':').at(-1)!]);
      if (pid) infra.temporalPid = pid;
    },
    async stop() {
      await restate?.stop();
      postgres?.stop();
      if (server !== temporal.server) await server.stop();
      await connection?.close();
      await temporal.close();
    },
  };
  return infra;
}

type RestateServer = NonNullable<SideBySideInfra['restate']>;

/** restate-server as the peers' own script starts it (bench/peers/engines/restate/start-server.mjs). */
async function startRestate(peersDir: string, workDir: string): Promise<RestateServer> {
  const script = path.join(peersDir, 'engines', 'restate', 'start-server.mjs');
  const mod = (await import(pathToFileURL(script).href)) as {
    startRestateServer(o: { workDir: string }): Promise<RestateServer>;
  };
  return mod.startRestateServer({ workDir });
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
