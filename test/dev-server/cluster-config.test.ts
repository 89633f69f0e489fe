import net from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  CLUSTER_DYNAMIC_CONFIG,
  clusterDynamicConfigYaml,
} from '../../src/dev-server/cluster/roles/cluster-dynamic-config';
import {
  CLUSTER_PORT_NAMES,
  clusterServerConfig,
  type ClusterPorts,
} from '../../src/dev-server/cluster/roles/cluster-server-config';
import { ClusterState } from '../../src/dev-server/cluster/lifecycle/cluster-state';
import { freePortsBelow32768, isPortFree } from '../../src/dev-server/cluster/roles/free-ports-below';
import { VERSIONING_DYNAMIC_CONFIG } from '../../src/dev-server/versioning-dynamic-config';

const PORTS = Object.fromEntries(CLUSTER_PORT_NAMES.map((name, i) => [name, 21000 + i])) as ClusterPorts;

describe("the cluster's server config", () => {
  const config = clusterServerConfig({ ports: PORTS, dynamicConfigFile: '/c/dynamic.yaml', numHistoryShards: 8 });
  const json = JSON.stringify(config);

  it('keeps history and visibility in two PostgreSQL databases on the given port, with the given shard count', () => {
    expect(config).toMatchObject({
      persistence: {
        numHistoryShards: 8,
        datastores: {
          'postgres-default': {
            sql: { pluginName: 'postgres12', databaseName: 'temporal', connectAddr: '127.0.0.1:21000' },
          },
          'postgres-visibility': {
            sql: { pluginName: 'postgres12', databaseName: 'temporal_visibility', connectAddr: '127.0.0.1:21000' },
          },
        },
      },
      dynamicConfigClient: { filepath: '/c/dynamic.yaml' },
    });
  });

  it('gives each role its own gRPC and membership ports, and nothing else a port', () => {
    const services = config.services as Record<string, { rpc: Record<string, unknown> }>;
    expect(Object.keys(services).sort()).toEqual(['frontend', 'history', 'matching', 'worker']);
    expect(services.frontend!.rpc).toMatchObject({ grpcPort: 21001, httpPort: 21002, membershipPort: 21003 });
    expect(services.worker!.rpc).toMatchObject({ grpcPort: 21008, membershipPort: 21009 });
    const ports = [...json.matchAll(/"(?:grpcPort|httpPort|membershipPort)":(\d+)/g)].map((m) => Number(m[1]));
    expect(new Set(ports).size).toBe(9);
    // The module's development config listens for Prometheus and pprof; a cluster per test run must not.
    expect(json).not.toMatch(/prometheus|pprof|archival/);
  });
});

describe("the cluster's dynamic config", () => {
  it('sets the dev servers’ versioning and drainage values, one YAML entry per key', () => {
    const yaml = clusterDynamicConfigYaml();
    for (const entry of VERSIONING_DYNAMIC_CONFIG) expect(CLUSTER_DYNAMIC_CONFIG).toContain(entry);
    expect(yaml).toContain('system.enableDeploymentVersions:\n  - value: true\n    constraints: {}');
    expect(yaml).toContain('matching.wv.VersionDrainageStatusRefreshInterval:\n  - value: "5s"');
    expect(yaml).toContain('limit.maxIDLength:\n  - value: 255');
    expect(yaml.match(/^\S+:$/gm)).toHaveLength(CLUSTER_DYNAMIC_CONFIG.length);
  });

  it('bounds the history service’s workflow cache by a swept TTL, not by 128,000 entries kept until read', () => {
    const yaml = clusterDynamicConfigYaml();
    expect(yaml).toContain('history.cacheTTL:\n  - value: "5m"');
    // Without the sweep the TTL is checked only when an entry is read again (Temporal 1.32's default).
    expect(yaml).toContain('history.cacheBackgroundEvict:\n  - value: {"Enabled":true,"LoopInterval":"1m"}');
  });

  it('refuses a value that is not KEY=JSON', () => {
    expect(() => clusterDynamicConfigYaml(['system.x=not json'])).toThrow();
    expect(() => clusterDynamicConfigYaml(['=1'])).toThrow(/not KEY=JSON/);
  });
});

describe('cluster ports', () => {
  it('are distinct, free and below 32768 (the membership table stores them as smallint)', async () => {
    const ports = await freePortsBelow32768(10);
    expect(new Set(ports).size).toBe(10);
    for (const port of ports) {
      expect(port).toBeLessThan(32768);
      expect(await isPortFree(port)).toBe(true);
    }
  });

  it('a port in use is not free', async () => {
    const [port] = await freePortsBelow32768(1);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      expect(await isPortFree(port!)).toBe(false);
    } finally {
      server.close();
    }
  });

  it('a state file with a port above 32767 does not parse', () => {
    const state = {
      schemaVersion: 1,
      name: 'x',
      namespace: 'default',
      numHistoryShards: 4,
      postgresBin: '/b',
      processes: [],
    };
    expect(ClusterState.safeParse({ ...state, ports: PORTS }).success).toBe(true);
    // A state file from before --mtls existed is a cluster without it.
    expect(ClusterState.parse({ ...state, ports: PORTS }).mtls).toBe(false);
    expect(ClusterState.safeParse({ ...state, ports: { ...PORTS, historyMembership: 40000 } }).success).toBe(false);
  });
});
