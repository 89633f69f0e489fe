import fs from 'node:fs';
import { findProjectRoot } from '../../project-paths';
import { withStartLock } from '../../install/start-lock';
import { clusterPaths, type ClusterPaths } from '../cluster-paths';
import { stopPostgres } from '../database/cluster-postgres';
import { readClusterState, writeClusterState, type ClusterState } from './cluster-state';
import { stopServerRoles } from '../roles/server-role-process';

export interface StopClusterOptions {
  projectRoot?: string;
  /** Default 'default'. */
  name?: string;
  /** Also delete the cluster's folder: its databases, logs and state. */
  deleteData?: boolean;
  log?: (line: string) => void;
}

/** Ends the server roles recorded in `state` (only those still ours), then the cluster's PostgreSQL. */
export async function stopClusterProcesses(state: ClusterState, paths: ClusterPaths): Promise<void> {
  await stopServerRoles(
    state.processes.map((p) => p.pid),
    paths.serverConfig,
  );
  await stopPostgres(state.postgresBin, paths);
}

/**
 * Stops what `startCluster` started for cluster `name`, and nothing else: the pids in its state
 * file and the PostgreSQL of its data folder. The data stays for the next start unless
 * `deleteData`. Returns false when there was no cluster of that name.
 */
export async function stopCluster(o: StopClusterOptions = {}): Promise<boolean> {
  const log = o.log ?? ((line: string) => console.error(line));
  const name = o.name ?? 'default';
  const paths = clusterPaths(o.projectRoot ?? findProjectRoot(), name);
  if (!fs.existsSync(paths.dir)) return false;
  return withStartLock(paths.lockFile, { log }, async () => {
    const state = readClusterState(paths.stateFile);
    if (state) {
      await stopClusterProcesses(state, paths);
      writeClusterState(paths.stateFile, { ...state, processes: [] });
      log(`cluster ${name} stopped`);
    }
    if (o.deleteData) {
      fs.rmSync(paths.dir, { recursive: true, force: true });
      log(`deleted ${paths.dir}`);
    }
    return state !== undefined || o.deleteData === true;
  });
}
