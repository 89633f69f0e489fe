import { z } from 'zod';
import { CLUSTER_SERVER_NAME, type ClusterCertificates } from '../tls/cluster-certificates';
import { POSTGRES_USER } from '../database/cluster-postgres';
import { MAX_CLUSTER_PORT } from './free-ports-below';

/** The four roles of a Temporal server, each its own process here as in a production deployment. */
export const SERVER_ROLES = ['history', 'matching', 'frontend', 'worker'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

const port = z.number().int().min(1).max(MAX_CLUSTER_PORT);

/** Every port the cluster listens on; all below 32768 (see free-ports-below.ts). */
export const ClusterPorts = z.object({
  postgres: port,
  frontendGrpc: port,
  frontendHttp: port,
  frontendMembership: port,
  historyGrpc: port,
  historyMembership: port,
  matchingGrpc: port,
  matchingMembership: port,
  workerGrpc: port,
  workerMembership: port,
});
export type ClusterPorts = z.infer<typeof ClusterPorts>;
export const CLUSTER_PORT_NAMES = Object.keys(ClusterPorts.shape) as ReadonlyArray<keyof ClusterPorts>;

export interface ClusterServerConfigOptions {
  ports: ClusterPorts;
  dynamicConfigFile: string;
  /** Fixed for the life of the databases: Temporal refuses to start with another count. */
  numHistoryShards: number;
  /** With these, every gRPC listener requires TLS and a client certificate signed by the cluster's CA. */
  tls?: ClusterCertificates;
}

function sqlStore(database: string, port: number, maxConns: number): Record<string, unknown> {
  return {
    sql: {
      pluginName: 'postgres12',
      databaseName: database,
      connectAddr: `127.0.0.1:${port}`,
      connectProtocol: 'tcp',
      user: POSTGRES_USER,
      password: '',
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  };
}

/**
 * Mutual TLS on the frontend (clients) and between the roles (internode), as a production cluster
 * runs: each side presents a certificate the cluster's CA signed and checks the other's. The
 * system worker dials the frontend like any client, with the internode pair.
 */
function mutualTls(certs: ClusterCertificates): Record<string, unknown> {
  const client = { serverName: CLUSTER_SERVER_NAME, rootCaFiles: [certs.caCert] };
  const server = (certFile: string, keyFile: string) => ({
    certFile,
    keyFile,
    requireClientAuth: true,
    clientCaFiles: [certs.caCert],
  });
  return {
    internode: { server: server(certs.internodeCert, certs.internodeKey), client },
    frontend: { server: server(certs.frontendCert, certs.frontendKey), client },
    systemWorker: { certFile: certs.internodeCert, keyFile: certs.internodeKey, client },
  };
}

const role = (grpcPort: number, membershipPort: number, extra: Record<string, unknown> = {}) => ({
  rpc: { grpcPort, membershipPort, bindOnLocalHost: true, ...extra },
});

/**
 * The server's static config: the module's config/development-postgres12.yaml with this cluster's
 * ports and database, SQL visibility on PostgreSQL, and without what a test cluster has no use
 * for (archival to /tmp, a Prometheus listener, pprof); with `tls`, mutual TLS everywhere. Pure.
 * Returned as an object: its JSON text is YAML too, and the server reads it with --config-file.
 */
export function clusterServerConfig(o: ClusterServerConfigOptions): Record<string, unknown> {
  const { ports } = o;
  return {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: o.numHistoryShards,
      datastores: {
        'postgres-default': sqlStore('temporal', ports.postgres, 20),
        'postgres-visibility': sqlStore('temporal_visibility', ports.postgres, 10),
      },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' },
      ...(o.tls ? { tls: mutualTls(o.tls) } : {}),
    },
    services: {
      frontend: role(ports.frontendGrpc, ports.frontendMembership, { httpPort: ports.frontendHttp }),
      history: role(ports.historyGrpc, ports.historyMembership),
      matching: role(ports.matchingGrpc, ports.matchingMembership),
      worker: role(ports.workerGrpc, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `127.0.0.1:${ports.frontendGrpc}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: o.dynamicConfigFile, pollInterval: '10s' },
  };
}
