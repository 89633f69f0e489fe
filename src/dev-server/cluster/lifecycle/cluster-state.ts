import fs from 'node:fs';
import { z } from 'zod';
import { ClusterPorts, SERVER_ROLES } from '../roles/cluster-server-config';

/**
 * What `start` leaves for `stop` and `status` in <cluster>/state.json. It outlives a stop (with
 * `processes` empty) so a restart keeps the same ports, hence the same address, when they are free.
 */
export const ClusterState = z.object({
  schemaVersion: z.literal(1),
  name: z.string(),
  namespace: z.string(),
  /** Fixed when the databases are created. */
  numHistoryShards: z.number().int().positive(),
  ports: ClusterPorts,
  /**
   * Started with --mtls: every listener requires a client certificate from the cluster's CA.
   * Absent before mTLS existed.
   */
  mtls: z.boolean().default(false),
  /** The PostgreSQL bin folder whose pg_ctl stops the database. */
  postgresBin: z.string(),
  /** Server roles this cluster's `start` spawned; empty once stopped. */
  processes: z.array(z.object({ role: z.enum(SERVER_ROLES), pid: z.number().int().positive() })),
});
export type ClusterState = z.infer<typeof ClusterState>;

export function readClusterState(file: string): ClusterState | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return ClusterState.parse(JSON.parse(text));
}

export function writeClusterState(file: string, state: ClusterState): void {
  fs.writeFileSync(file, `${JSON.stringify(ClusterState.parse(state), null, 2)}\n`);
}

export const addressOf = (state: Pick<ClusterState, 'ports'>): string => `127.0.0.1:${state.ports.frontendGrpc}`;

/**
 * Whether `pid` is alive and still the process we started: its command line names `marker` (the
 * cluster's config file), so a pid the OS has since given to another program is never signalled.
 * Where /proc is missing, being alive has to do.
 */
export function isOurProcess(pid: number, marker: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker);
  } catch {
    return !fs.existsSync('/proc/self');
  }
}
