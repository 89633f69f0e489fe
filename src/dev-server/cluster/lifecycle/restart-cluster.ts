import { loadConfig } from '../../../config';
import { findProjectRoot } from '../../project-paths';
import { withStartLock } from '../../install/start-lock';
import { clusterPaths, serverBinaryPaths, type ClusterPaths } from '../cluster-paths';
import { startPostgres, stopPostgres } from '../database/cluster-postgres';
import { SERVER_ROLES, type ServerRole } from '../roles/cluster-server-config';
import { clusterClientVariables, clusterEndpoint } from '../cluster-client-variables';
import { readClusterState, writeClusterState, type ClusterState } from './cluster-state';
import { ensureNamespace } from './ensure-namespace';
import { spawnServerRole, stopServerRoles } from '../roles/server-role-process';

/** The roles rejoining the ring and the frontend describing the namespace again. */
const READY_TIMEOUT_MS = 180_000;

export interface RestartClusterOptions {
  projectRoot?: string;
  /** Default 'default'. */
  name?: string;
  log?: (line: string) => void;
}

export interface RestartRolesOptions extends RestartClusterOptions {
  /** Only these roles, the others left running (a rolling restart of the frontend, say). Default all four. */
  roles?: readonly ServerRole[];
}

/**
 * Restarts the four Temporal server roles of a running cluster, as an upgrade or a host reboot
 * does: each ends as `stop` ends it (SIGTERM, only pids still ours), then all start again on the
 * same ports and data; resolves once the frontend serves the namespace again. The state file
 * names the new pids after each spawn, so a `stop` at any point ends what runs. Runs in flight
 * wait, and go on after.
 */
export async function restartServerRoles(o: RestartRolesOptions = {}): Promise<ClusterState> {
  const log = o.log ?? ((line: string) => console.error(line));
  const projectRoot = o.projectRoot ?? findProjectRoot();
  const name = o.name ?? 'default';
  const paths = clusterPaths(projectRoot, name);
  return withStartLock(paths.lockFile, { log }, async () => {
    const state = runningState(paths, name);
    const roles = o.roles ?? SERVER_ROLES;
    await stopServerRoles(
      state.processes.filter((p) => roles.includes(p.role)).map((p) => p.pid),
      paths.serverConfig,
    );
    const restarted: ClusterState = { ...state, processes: state.processes.filter((p) => !roles.includes(p.role)) };
    writeClusterState(paths.stateFile, restarted);
    const { server } = serverBinaryPaths(projectRoot);
    // All at once: the cluster's metadata row exists since its first start, so no role races to write it.
    for (const role of roles) {
      const pid = spawnServerRole({ server, configFile: paths.serverConfig, role, logDir: paths.logDir });
      restarted.processes.push({ role, pid });
      writeClusterState(paths.stateFile, restarted);
    }
    // Through the variables a client of this cluster sets (its mTLS pair too), as `start` does.
    const endpoint = clusterEndpoint(clusterClientVariables(restarted, restarted.namespace, paths));
    await ensureNamespace(endpoint, restarted.namespace, loadConfig().retentionDays, { timeoutMs: READY_TIMEOUT_MS });
    log(`cluster ${name}: Temporal server ${roles.join(', ')} restarted`);
    return restarted;
  });
}

/**
 * Restarts the cluster's PostgreSQL (a fast shutdown: open connections are cut, as a failover or
 * a crash restart cuts them) on the same port and data. The server roles keep running and
 * reconnect by themselves.
 */
export async function restartClusterPostgres(o: RestartClusterOptions = {}): Promise<void> {
  const log = o.log ?? ((line: string) => console.error(line));
  const name = o.name ?? 'default';
  const paths = clusterPaths(o.projectRoot ?? findProjectRoot(), name);
  await withStartLock(paths.lockFile, { log }, async () => {
    const state = runningState(paths, name);
    await stopPostgres(state.postgresBin, paths);
    await startPostgres(state.postgresBin, paths, state.ports.postgres);
    log(`cluster ${name}: PostgreSQL restarted on 127.0.0.1:${state.ports.postgres}`);
  });
}

function runningState(paths: ClusterPaths, name: string): ClusterState {
  const state = readClusterState(paths.stateFile);
  if (!state || state.processes.length === 0) throw new Error(`cluster ${name} is not running (start it first)`);
  return state;
}
