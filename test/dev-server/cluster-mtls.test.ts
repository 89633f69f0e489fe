import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureClusterCertificates } from '../../src/dev-server/cluster/tls/cluster-certificates';
import { clusterClientVariables, clusterEndpoint } from '../../src/dev-server/cluster/cluster-client-variables';
import {
  CLUSTER_PORT_NAMES,
  clusterServerConfig,
  type ClusterPorts,
} from '../../src/dev-server/cluster/roles/cluster-server-config';

const PORTS = Object.fromEntries(CLUSTER_PORT_NAMES.map((name, i) => [name, 21000 + i])) as ClusterPorts;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-cluster-tls-'));
const tlsDir = path.join(dir, 'tls');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("an mTLS cluster's certificates", () => {
  it('are a CA and the frontend, internode and client pairs it signed, for localhost; a second start reuses them', () => {
    const first = ensureClusterCertificates(tlsDir, 'x');
    expect(first.made).toBe(true);
    const read = (file: string) => new X509Certificate(fs.readFileSync(file));
    const ca = read(first.certs.caCert);
    for (const file of [first.certs.frontendCert, first.certs.internodeCert, first.certs.clientCert])
      expect(read(file).verify(ca.publicKey), file).toBe(true);
    expect(read(first.certs.frontendCert).checkHost('localhost')).toBe('localhost');
    expect(read(first.certs.frontendCert).checkIP('127.0.0.1')).toBe('127.0.0.1');
    // The internode pair is both ends of a role-to-role call.
    expect(read(first.certs.internodeCert).keyUsage).toEqual(
      expect.arrayContaining(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']),
    );
    expect(fs.readdirSync(tlsDir).sort()).toEqual([
      'ca.key',
      'ca.pem',
      'client.key',
      'client.pem',
      'frontend.key',
      'frontend.pem',
      'internode.key',
      'internode.pem',
    ]);

    const clientBefore = fs.readFileSync(first.certs.clientCert, 'utf8');
    const second = ensureClusterCertificates(tlsDir, 'x');
    expect(second.made).toBe(false);
    expect(fs.readFileSync(second.certs.clientCert, 'utf8')).toBe(clientBefore);
  });
});

describe("an mTLS cluster's server config", () => {
  it('requires a certificate from the cluster CA on the frontend and between roles; the system worker presents one', () => {
    const { certs } = ensureClusterCertificates(tlsDir, 'x');
    const config = clusterServerConfig({ ports: PORTS, dynamicConfigFile: '/d.yaml', numHistoryShards: 4, tls: certs });
    const client = { serverName: 'localhost', rootCaFiles: [certs.caCert] };
    expect((config.global as { tls: unknown }).tls).toEqual({
      frontend: {
        server: {
          certFile: certs.frontendCert,
          keyFile: certs.frontendKey,
          requireClientAuth: true,
          clientCaFiles: [certs.caCert],
        },
        client,
      },
      internode: {
        server: {
          certFile: certs.internodeCert,
          keyFile: certs.internodeKey,
          requireClientAuth: true,
          clientCaFiles: [certs.caCert],
        },
        client,
      },
      systemWorker: { certFile: certs.internodeCert, keyFile: certs.internodeKey, client },
    });
    const plain = clusterServerConfig({ ports: PORTS, dynamicConfigFile: '/d.yaml', numHistoryShards: 4 });
    expect(plain.global).not.toHaveProperty('tls');
  });
});

describe("a cluster's client variables", () => {
  it('are the address and namespace, and for mTLS the client pair, the CA and the server name', () => {
    expect(clusterClientVariables({ ports: PORTS, mtls: false }, 'agents', { tlsDir })).toEqual({
      TEMPORAL_ADDRESS: '127.0.0.1:21001',
      TEMPORAL_NAMESPACE: 'agents',
    });
    expect(clusterClientVariables({ ports: PORTS, mtls: true }, 'agents', { tlsDir })).toEqual({
      TEMPORAL_ADDRESS: '127.0.0.1:21001',
      TEMPORAL_NAMESPACE: 'agents',
      TEMPORAL_TLS_CLIENT_CERT_PATH: path.join(tlsDir, 'client.pem'),
      TEMPORAL_TLS_CLIENT_KEY_PATH: path.join(tlsDir, 'client.key'),
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: path.join(tlsDir, 'ca.pem'),
      TEMPORAL_TLS_SERVER_NAME: 'localhost',
    });
  });

  it('read by the loader every client uses, give the endpoint the cluster sets itself up through', () => {
    ensureClusterCertificates(tlsDir, 'x');
    const endpoint = clusterEndpoint(clusterClientVariables({ ports: PORTS, mtls: true }, 'agents', { tlsDir }));
    expect(endpoint.address).toBe('127.0.0.1:21001');
    expect(endpoint.tls).toMatchObject({
      serverNameOverride: 'localhost',
      serverRootCACertificate: fs.readFileSync(path.join(tlsDir, 'ca.pem')),
      clientCertPair: { crt: fs.readFileSync(path.join(tlsDir, 'client.pem')) },
    });
    expect(clusterEndpoint(clusterClientVariables({ ports: PORTS, mtls: false }, 'agents', { tlsDir }))).toEqual({
      address: '127.0.0.1:21001',
    });
  });
});
