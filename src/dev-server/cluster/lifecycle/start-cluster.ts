import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../config';
import { isReachable } from '../../probes/is-reachable';
import { findProjectRoot } from '../../project-paths';
import { withStartLock } from '../../install/start-lock';
import { findOrBuildTemporalServer } from '../roles/build-temporal-server';
import { ensureClusterCertificates } from '../tls/cluster-certificates';
import { clusterClientVariables, clusterEndpoint } from '../cluster-client-variables';
import { clusterDynamicConfigYaml } from '../roles/cluster-dynamic-config';
import { clusterPaths, type ClusterPaths } from '../cluster-paths';
import { findPostgresBin, initPostgres, postgresPid, startPostgres } from '../database/cluster-postgres';
import { askPostgres, setUpSchemas } from '../database/cluster-schema';
import {
  CLUSTER_PORT_NAMES,
  clusterServerConfig,
  SERVER_ROLES,
  type ClusterPorts,
  type ServerRole,
} from '../roles/cluster-server-config';
import { addressOf, isOurProcess, readClusterState, writeClusterState, type ClusterState } from './cluster-state';
import { ensureNamespace } from './ensure-namespace';
import { freePortsBelow32768, isPortFree } from '../roles/free-ports-below';
import { retryUntil } from './retry-until';
import { ensureSearchAttributesReady } from './search-attributes-ready';
import { spawnServerRole } from '../roles/server-role-process';
import { stopClusterProcesses } from './stop-cluster';

/** Roles joining the ring, the namespace and its search attributes: about 20 s on two idle cores. */
const READY_TIMEOUT_MS = 180_000;
const DEFAULT_SHARDS = 4;

export interface StartClusterOptions {
  projectRoot?: string;
  /** Several clusters can live side by side under .thoughtline/cluster/<name>; default 'default'. */
  name?: string;
  /** Registered with Thoughtline's search attributes; default 'default'. */
  namespace?: string;
  /** For new databases only (default 4): the count is fixed once the databases exist. */
  numHistoryShards?: number;
  /** Stop the cluster if it runs, and delete its databases, logs and state first. */
  fresh?: boolean;
  /**
   * Mutual TLS: the frontend and the roles among themselves require certificates signed by the
   * cluster's own CA, made in <cluster>/tls. Chosen at every start (default off): a running
   * cluster started the other way is restarted on the same data.
   */
  mtls?: boolean;
  log?: (line: string) => void;
}

export interface RunningCluster {
  name: string;
  /** host:port of the frontend, for TEMPORAL_ADDRESS. */
  address: string;
  namespace: string;
  /**
   * What a client sets to reach it: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, and the TEMPORAL_TLS_*
   * files of an mTLS cluster.
   */
  variables: Readonly<Record<string, string>>;
  state: ClusterState;
  paths: ClusterPaths;
  /** False when it was running already. */
  started: boolean;
}

/**
 * A Temporal cluster as it runs in production, on this machine: the real server at
 * TEMPORAL_SERVER_VERSION (built once), its four roles in four processes, PostgreSQL for
 * persistence and SQL visibility with the schemas applied by the SQL tool, and `namespace` with
 * Thoughtline's search attributes usable. Everything it starts outlives this process and is
 * recorded in the cluster's state file; `stopCluster` ends exactly that. A cluster already
 * running is returned as it is.
 */
export async function startCluster(o: StartClusterOptions = {}): Promise<RunningCluster> {
  const log = o.log ?? ((line: string) => console.error(line));
  const projectRoot = o.projectRoot ?? findProjectRoot();
  const name = o.name ?? 'default';
  const namespace = o.namespace ?? 'default';
  const mtls = o.mtls ?? false;
  const paths = clusterPaths(projectRoot, name);
  fs.mkdirSync(paths.dir, { recursive: true });
  return withStartLock(paths.lockFile, { log }, async () => {
    let previous = readClusterState(paths.stateFile);
    if (previous && previous.processes.length > 0) {
      const whole = !o.fresh && (await isWhole(previous, paths));
      if (whole && previous.mtls === mtls) {
        log(`cluster ${name} is running already`);
        const variables = clusterClientVariables(previous, namespace, paths);
        if (previous.namespace !== namespace) await prepareNamespace(variables, log);
        return { name, address: addressOf(previous), namespace, variables, state: previous, paths, started: false };
      }
      log(
        o.fresh
          ? `stopping cluster ${name} to start it afresh`
          : whole
            ? `cluster ${name} runs ${previous.mtls ? 'with' : 'without'} mTLS; restarting it ${mtls ? 'with' : 'without'}`
            : `cluster ${name} is partly running (a start that failed, or a process that died); stopping what is left`,
      );
      await stopClusterProcesses(previous, paths);
    }
    if (o.fresh) {
      fs.rmSync(paths.dir, { recursive: true, force: true });
      fs.mkdirSync(paths.dir, { recursive: true });
      previous = undefined;
    }
    const hasDatabases = fs.existsSync(path.join(paths.postgresData, 'PG_VERSION'));
    const numHistoryShards = shardCount(hasDatabases ? previous : undefined, o.numHistoryShards, name);

    const binaries = await findOrBuildTemporalServer({ projectRoot, log });
    const postgresBin = await findPostgresBin(projectRoot);
    const state: ClusterState = {
      schemaVersion: 1,
      name,
      namespace,
      numHistoryShards,
      ports: await choosePorts(previous?.ports),
      mtls,
      postgresBin,
      processes: [],
    };
    writeClusterState(paths.stateFile, state);
    try {
      if (await initPostgres(postgresBin, paths)) log(`created PostgreSQL's data folder ${paths.postgresData}`);
      await startPostgres(postgresBin, paths, state.ports.postgres);
      log(`PostgreSQL on 127.0.0.1:${state.ports.postgres}`);
      await setUpSchemas(binaries, state.ports.postgres, log);

      fs.writeFileSync(paths.dynamicConfig, clusterDynamicConfigYaml());
      const tls = mtls ? ensureClusterCertificates(paths.tlsDir, name) : undefined;
      if (tls?.made)
        log(`made the cluster's CA and its frontend, internode and client certificates in ${paths.tlsDir}`);
      const config = clusterServerConfig({
        ports: state.ports,
        dynamicConfigFile: paths.dynamicConfig,
        numHistoryShards,
        ...(tls ? { tls: tls.certs } : {}),
      });
      fs.writeFileSync(paths.serverConfig, `${JSON.stringify(config, null, 2)}\n`);
      const spawnRole = (role: ServerRole): void => {
        const pid = spawnServerRole({
          server: binaries.server,
          configFile: paths.serverConfig,
          role,
          logDir: paths.logDir,
        });
        state.processes.push({ role, pid });
        // Written after each spawn, so a stop finds whatever a failed start left running.
        writeClusterState(paths.stateFile, state);
      };
      // Every role writes the cluster's metadata row when it finds none; four at once on new
      // databases race, and a loser exits on the duplicate key. One role first, then the others.
      const [first, ...others] = SERVER_ROLES;
      spawnRole(first);
      await retryUntil(
        `the ${first} role writing the cluster's metadata`,
        { timeoutMs: READY_TIMEOUT_MS, gaveUp: () => deadRole(state, paths) },
        () => clusterMetadataWritten(state.ports.postgres),
      );
      for (const role of others) spawnRole(role);
      log(`Temporal server ${SERVER_ROLES.join(', ')} started (logs in ${paths.logDir})`);
      await prepareNamespace(clusterClientVariables(state, namespace, paths), log, () => deadRole(state, paths));
    } catch (err) {
      await stopClusterProcesses(state, paths).catch(() => {});
      writeClusterState(paths.stateFile, { ...state, processes: [] });
      throw new Error(`cluster ${name} did not start: ${err instanceof Error ? err.message : String(err)}`);
    }
    log(
      `cluster ${name} ready${mtls ? ' (mTLS)' : ''}: TEMPORAL_ADDRESS=${addressOf(state)} TEMPORAL_NAMESPACE=${namespace}`,
    );
    const variables = clusterClientVariables(state, namespace, paths);
    return { name, address: addressOf(state), namespace, variables, state, paths, started: true };
  });
}

/** Registers the namespace and its search attributes through the frontend, as a client given `variables` would. */
async function prepareNamespace(
  variables: Readonly<Record<string, string>>,
  log: (line: string) => void,
  gaveUp?: () => string | undefined,
): Promise<void> {
  const endpoint = clusterEndpoint(variables);
  const namespace = variables.TEMPORAL_NAMESPACE!;
  const wait = { timeoutMs: READY_TIMEOUT_MS, ...(gaveUp ? { gaveUp } : {}) };
  const registered = await ensureNamespace(endpoint, namespace, loadConfig().retentionDays, wait);
  if (registered) log(`registered namespace ${namespace}`);
  const added = await ensureSearchAttributesReady(endpoint, namespace, wait);
  if (added.length > 0) log(`registered search attributes ${added.join(', ')}; a run using them starts`);
}

/** Resolves once the `temporal` database holds the cluster's metadata row; rejects before. */
async function clusterMetadataWritten(port: number): Promise<void> {
  const rows = await askPostgres(port, 'temporal', 'SELECT 1 FROM cluster_metadata_info LIMIT 1', [], (r) => r.length);
  if (rows === 0) throw new Error('no cluster_metadata_info row yet');
}

/** Every recorded role still ours, PostgreSQL up, and the frontend accepting connections. */
async function isWhole(state: ClusterState, paths: ClusterPaths): Promise<boolean> {
  return (
    state.processes.every((p) => isOurProcess(p.pid, paths.serverConfig)) &&
    postgresPid(paths) !== undefined &&
    (await isReachable(addressOf(state)))
  );
}

/** The same ports as last time when all are free, so the address stays the same across restarts. */
async function choosePorts(previous: ClusterPorts | undefined): Promise<ClusterPorts> {
  if (previous) {
    const free = await Promise.all(CLUSTER_PORT_NAMES.map((n) => isPortFree(previous[n])));
    if (free.every(Boolean)) return previous;
  }
  const ports = await freePortsBelow32768(CLUSTER_PORT_NAMES.length);
  return Object.fromEntries(CLUSTER_PORT_NAMES.map((n, i) => [n, ports[i]!])) as unknown as ClusterPorts;
}

function shardCount(existing: ClusterState | undefined, asked: number | undefined, name: string): number {
  if (!existing) return asked ?? DEFAULT_SHARDS;
  if (asked !== undefined && asked !== existing.numHistoryShards) {
    throw new Error(
      `cluster ${name}'s databases were created with ${existing.numHistoryShards} history shards, ` +
        `which cannot change; start it with --fresh to begin again with ${asked}`,
    );
  }
  return existing.numHistoryShards;
}

/** Why waiting is pointless: a role that has exited, with the end of its log. */
function deadRole(state: ClusterState, paths: ClusterPaths): string | undefined {
  const dead = state.processes.find((p) => !isOurProcess(p.pid, paths.serverConfig));
  if (!dead) return undefined;
  const logFile = path.join(paths.logDir, `${dead.role}.log`);
  let tail = '(no log)';
  try {
    tail = fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-10).join('\n');
  } catch {
    // No log yet.
  }
  return `the ${dead.role} role (pid ${dead.pid}) exited; last lines of ${logFile}:\n${tail}`;
}
