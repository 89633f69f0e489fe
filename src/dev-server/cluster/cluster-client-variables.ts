import { endpointOf, type TemporalEndpoint } from '../../connection/connection-settings';
import { loadConnectionSettings } from '../../connection/load-connection-settings';
import { CLUSTER_SERVER_NAME, clusterCertificatePaths } from './tls/cluster-certificates';
import type { ClusterPaths } from './cluster-paths';
import { addressOf, type ClusterState } from './lifecycle/cluster-state';

/**
 * The TEMPORAL_* variables a client of the cluster sets, in the order `start` and `status` print
 * them (`KEY=value` lines): the address and namespace, and for an mTLS cluster the client pair,
 * the CA and the name in the server's certificate. Pure.
 */
export function clusterClientVariables(
  state: Pick<ClusterState, 'ports' | 'mtls'>,
  namespace: string,
  paths: Pick<ClusterPaths, 'tlsDir'>,
): Readonly<Record<string, string>> {
  const variables: Record<string, string> = { TEMPORAL_ADDRESS: addressOf(state), TEMPORAL_NAMESPACE: namespace };
  if (!state.mtls) return variables;
  const certs = clusterCertificatePaths(paths.tlsDir);
  return {
    ...variables,
    TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: certs.clientKey,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.caCert,
    TEMPORAL_TLS_SERVER_NAME: CLUSTER_SERVER_NAME,
  };
}

/**
 * The endpoint the cluster's own setup (namespace, search attributes) dials: those variables read
 * by the loader every client uses, so the setup only succeeds if what `start` prints works. Only
 * the variables are given, no home folder, so no temporal.toml profile gets in.
 */
export function clusterEndpoint(variables: Readonly<Record<string, string>>): TemporalEndpoint {
  return endpointOf(loadConnectionSettings({}, { ...variables }));
}
