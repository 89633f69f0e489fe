import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { probeTls } from '../../src/connection/probe-tls';
import { clusterStatus } from '../../src/dev-server/cluster';
import { clusterPaths } from '../../src/dev-server/cluster/cluster-paths';
import { readClusterState, type ClusterState } from '../../src/dev-server/cluster/lifecycle/cluster-state';
import { findProjectRoot } from '../../src/dev-server/project-paths';

const PROJECT_ROOT = findProjectRoot(__dirname);

/** The cluster `npm run test:cluster` started with --mtls; it names it so the test can read its state. */
function mtlsCluster(): ClusterState {
  const name = process.env.THOUGHTLINE_TEST_MTLS_CLUSTER_NAME;
  if (!name)
    throw new Error('THOUGHTLINE_TEST_MTLS_CLUSTER_NAME is not set: run these tests with npm run test:cluster');
  const state = readClusterState(clusterPaths(PROJECT_ROOT, name).stateFile);
  if (!state) throw new Error(`cluster ${name} has no state file`);
  return state;
}

describe('the cluster started with --mtls', () => {
  it('printed the variables the secured tests connect with, and status prints them too', async () => {
    const state = mtlsCluster();
    expect(state.mtls).toBe(true);
    const status = await clusterStatus({ name: state.name });
    expect(status.condition).toBe('running');
    expect(status.variables).toEqual({
      TEMPORAL_ADDRESS: process.env.THOUGHTLINE_TEST_MTLS_ADDRESS,
      TEMPORAL_NAMESPACE: process.env.THOUGHTLINE_TEST_MTLS_NAMESPACE,
      TEMPORAL_TLS_CLIENT_CERT_PATH: process.env.THOUGHTLINE_TEST_MTLS_CERT,
      TEMPORAL_TLS_CLIENT_KEY_PATH: process.env.THOUGHTLINE_TEST_MTLS_KEY,
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: process.env.THOUGHTLINE_TEST_MTLS_CA,
      TEMPORAL_TLS_SERVER_NAME: process.env.THOUGHTLINE_TEST_MTLS_SERVER_NAME,
    });
  });

  it('requires a client certificate from its CA on the frontend and on every role’s internode port', async () => {
    const state = mtlsCluster();
    const ca = fs.readFileSync(process.env.THOUGHTLINE_TEST_MTLS_CA!);
    const clientCertPair = {
      crt: fs.readFileSync(process.env.THOUGHTLINE_TEST_MTLS_CERT!),
      key: fs.readFileSync(process.env.THOUGHTLINE_TEST_MTLS_KEY!),
    };
    const tls = { serverRootCACertificate: ca, serverNameOverride: 'localhost' };
    const { frontendGrpc, historyGrpc, matchingGrpc, workerGrpc } = state.ports;
    for (const port of [frontendGrpc, historyGrpc, matchingGrpc, workerGrpc]) {
      const at = { host: '127.0.0.1', port };
      expect(await probeTls(at, tls), `port ${port} without a certificate`).toEqual({
        kind: 'client-certificate-required',
      });
      expect(await probeTls(at, { ...tls, clientCertPair }), `port ${port} with one`).toEqual({ kind: 'accepted' });
    }
  });
});
