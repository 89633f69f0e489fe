import path from 'node:path';

/** The Temporal server release the cluster runs; its Go module also holds the SQL schemas. */
export const TEMPORAL_SERVER_VERSION = '1.32.2';

/** Where one built server release lives: two binaries and the PostgreSQL schemas they were built with. */
export interface ServerBinaryPaths {
  dir: string;
  server: string;
  sqlTool: string;
  /** schema/postgresql/v12/temporal/versioned, copied from the Go module. */
  temporalSchemaDir: string;
  /** schema/postgresql/v12/visibility/versioned, copied from the Go module. */
  visibilitySchemaDir: string;
}

export function serverBinaryPaths(projectRoot: string, version: string = TEMPORAL_SERVER_VERSION): ServerBinaryPaths {
  const dir = path.join(projectRoot, '.thoughtline', 'temporal-server', version);
  return {
    dir,
    server: path.join(dir, 'temporal-server'),
    sqlTool: path.join(dir, 'temporal-sql-tool'),
    temporalSchemaDir: path.join(dir, 'schema', 'temporal'),
    visibilitySchemaDir: path.join(dir, 'schema', 'visibility'),
  };
}

/** Everything one named cluster keeps under <projectRoot>/.thoughtline/cluster/<name>. */
export interface ClusterPaths {
  dir: string;
  /** Owned by the `postgres` OS user when run as root: PostgreSQL's data, its log and its socket. */
  postgresDir: string;
  postgresData: string;
  postgresLog: string;
  serverConfig: string;
  dynamicConfig: string;
  /** An mTLS cluster's CA, server and client certificates (cluster-certificates.ts). */
  tlsDir: string;
  /** One log file per server role: <logDir>/<role>.log. */
  logDir: string;
  /** Ports and the pids of what `start` started; `stop` reads it. */
  stateFile: string;
  /** Held while one process starts or stops this cluster. */
  lockFile: string;
}

export function clusterPaths(projectRoot: string, name: string): ClusterPaths {
  const dir = path.join(projectRoot, '.thoughtline', 'cluster', name);
  const postgresDir = path.join(dir, 'postgres');
  return {
    dir,
    postgresDir,
    postgresData: path.join(postgresDir, 'data'),
    postgresLog: path.join(postgresDir, 'postgres.log'),
    serverConfig: path.join(dir, 'temporal-server.yaml'),
    dynamicConfig: path.join(dir, 'dynamic-config.yaml'),
    tlsDir: path.join(dir, 'tls'),
    logDir: path.join(dir, 'logs'),
    stateFile: path.join(dir, 'state.json'),
    lockFile: path.join(dir, 'cluster.lock'),
  };
}
