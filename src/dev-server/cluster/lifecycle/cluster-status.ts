import { isReachable } from '../../probes/is-reachable';
import { findProjectRoot } from '../../project-paths';
import { clusterClientVariables } from '../cluster-client-variables';
import { clusterPaths } from '../cluster-paths';
import { postgresPid } from '../database/cluster-postgres';
import { addressOf, isOurProcess, readClusterState } from './cluster-state';

export interface ClusterStatus {
  name: string;
  /** 'absent': never started (or deleted); 'stopped': its data is kept; 'partial': something it started has died. */
  condition: 'absent' | 'stopped' | 'running' | 'partial';
  address?: string;
  namespace?: string;
  /** What a client sets to reach it (with the TEMPORAL_TLS_* files of an mTLS cluster); absent with no state. */
  variables?: Readonly<Record<string, string>>;
  /** One line per process: what it is, its pid, and whether it runs. */
  processes: string[];
}

/** What is running of cluster `name`, read from its state file and the processes themselves; starts nothing. */
export async function clusterStatus(o: { projectRoot?: string; name?: string } = {}): Promise<ClusterStatus> {
  const name = o.name ?? 'default';
  const paths = clusterPaths(o.projectRoot ?? findProjectRoot(), name);
  const state = readClusterState(paths.stateFile);
  if (!state) return { name, condition: 'absent', processes: [] };
  const address = addressOf(state);
  const postgres = postgresPid(paths);
  const roles = state.processes.map((p) => ({ ...p, alive: isOurProcess(p.pid, paths.serverConfig) }));
  const processes = [
    `postgres 127.0.0.1:${state.ports.postgres} ${postgres === undefined ? 'not running' : `pid ${postgres}`}`,
    ...roles.map((r) => `${r.role} pid ${r.pid} ${r.alive ? 'running' : 'gone'}`),
  ];
  const frontendUp = roles.length > 0 && (await isReachable(address));
  const allUp = roles.length > 0 && roles.every((r) => r.alive) && postgres !== undefined && frontendUp;
  const nothingUp = roles.every((r) => !r.alive) && postgres === undefined;
  const condition = allUp ? 'running' : nothingUp ? 'stopped' : 'partial';
  const variables = clusterClientVariables(state, state.namespace, paths);
  return { name, condition, address, namespace: state.namespace, variables, processes };
}
