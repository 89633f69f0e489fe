import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLUSTER_DYNAMIC_CONFIG } from '../../src/dev-server/cluster/roles/cluster-dynamic-config';
import { TEMPORAL_SERVER_VERSION } from '../../src/dev-server/cluster/cluster-paths';
import { TEMPORAL_DATABASES } from '../../src/dev-server/cluster/database/cluster-schema';
import { SEARCH_ATTRIBUTES } from '../../src/domain/run/search-attributes';

const ROOT = path.resolve(__dirname, '../..');

interface Service {
  image?: string;
  environment?: Record<string, string | null>;
  volumes?: string[];
  entrypoint?: string[];
  depends_on?: Record<string, { condition: string }>;
}

/** docker-compose.yml as Compose reads it (Docker does not run here: a YAML parser does). */
const compose = parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
};
const service = (name: string): Service => {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};

/** The host file a container path of `svc` is mounted from (the longest mounted prefix wins). */
function hostFileOf(svc: Service, containerPath: string): string {
  const mounts = (svc.volumes ?? []).map((v) => v.split(':') as [string, string]);
  const mount = mounts
    .filter(([, target]) => containerPath === target || containerPath.startsWith(`${target}/`))
    .sort((a, b) => b[1].length - a[1].length)[0];
  if (!mount) throw new Error(`${containerPath} is not mounted from the host`);
  return path.join(ROOT, mount[0], path.relative(mount[1], containerPath));
}

/** KEY=JSON entries as key → value: the form the cluster's dynamic config is written in. */
const clusterValues = (): Record<string, unknown> =>
  Object.fromEntries(
    CLUSTER_DYNAMIC_CONFIG.map((entry) => {
      const [key, json] = entry.split(/=(.*)/s) as [string, string];
      return [key, JSON.parse(json)];
    }),
  );

describe('docker-compose.yml is in step with the cluster the project tests', () => {
  it('runs the Temporal server release the cluster builds, with admin-tools of the same release, and no auto-setup', () => {
    expect(service('temporal').image).toBe(`temporalio/server:${TEMPORAL_SERVER_VERSION}`);
    const images = Object.values(compose.services).map((s) => s.image ?? '');
    const adminTools = images.filter((image) => image.startsWith('temporalio/admin-tools:'));
    expect(adminTools.length).toBeGreaterThanOrEqual(3);
    for (const image of adminTools) expect(image).toBe(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`);
    expect(images.some((image) => image.includes('auto-setup'))).toBe(false);
  });

  it('gives the server the cluster’s dynamic config, key for key and value for value', () => {
    const temporal = service('temporal');
    const file = hostFileOf(temporal, temporal.environment!.DYNAMIC_CONFIG_FILE_PATH!);
    const entries = parse(fs.readFileSync(file, 'utf8')) as Record<
      string,
      Array<{ value: unknown; constraints: object }>
    >;
    for (const [key, values] of Object.entries(entries)) {
      // One unconstrained value per key, as the cluster's file has.
      expect(values, key).toHaveLength(1);
      expect(values[0]!.constraints, key).toEqual({});
    }
    const compose = Object.fromEntries(Object.entries(entries).map(([key, values]) => [key, values[0]!.value]));
    expect(compose).toEqual(clusterValues());
  });

  it('sets up the same two databases, which the server is given, and waits for the setup before starting it', () => {
    const names = TEMPORAL_DATABASES.map((db) => db.name);
    for (const name of ['temporal', 'temporal-schema']) {
      const env = service(name).environment!;
      expect([env.DBNAME, env.VISIBILITY_DBNAME], name).toEqual(names);
    }
    expect(service('temporal').depends_on?.['temporal-schema']?.condition).toBe('service_completed_successfully');
    const schema = service('temporal-schema');
    const script = fs.readFileSync(hostFileOf(schema, schema.entrypoint!.at(-1)!), 'utf8');
    // The SQL tool's three steps, for the versioned schemas of both folders.
    for (const step of ['create-database', 'setup-schema -v 0.0', 'update-schema -d']) expect(script).toContain(step);
    expect(script).toContain('"${DBNAME:-temporal}:temporal" "${VISIBILITY_DBNAME:-temporal_visibility}:visibility"');
    expect(script).toContain('/etc/temporal/schema/postgresql/v12');
  });

  it('registers the namespace, then Thoughtline’s search attributes with their types, before the worker and serve start', () => {
    const attributes = service('create-search-attributes');
    expect(attributes.environment!.THOUGHTLINE_SEARCH_ATTRIBUTES!.split(/\s+/)).toEqual(
      SEARCH_ATTRIBUTES.map((a) => `${a.name}=${a.cliType}`),
    );
    expect(attributes.depends_on?.['create-namespace']?.condition).toBe('service_completed_successfully');
    for (const name of ['worker', 'server'])
      expect(service(name).depends_on?.['create-search-attributes']?.condition, name).toBe(
        'service_completed_successfully',
      );
  });
});

describe('docker-compose.yml gives serve a chain store', () => {
  it('points THOUGHTLINE_STORE at the compose PostgreSQL, in a database the one-shot job creates before serve starts', () => {
    const server = service('server');
    const url = new URL(server.environment!.THOUGHTLINE_STORE!.replace('${TEMPORAL_DB_PASSWORD:-temporal}', 'pw'));
    expect(url.protocol).toBe('postgres:');
    expect(url.host).toBe('postgresql:5432');
    const job = service('create-store-db');
    expect(url.pathname).toBe(`/${job.environment!.STORE_DBNAME}`);
    // Not Temporal's own databases: the store is a projection, never mixed with the source of truth.
    expect(TEMPORAL_DATABASES.map((db) => db.name)).not.toContain(job.environment!.STORE_DBNAME);
    expect(server.depends_on?.['create-store-db']?.condition).toBe('service_completed_successfully');
    expect(job.depends_on?.postgresql?.condition).toBe('service_healthy');
    const script = fs.readFileSync(hostFileOf(job, job.entrypoint!.at(-1)!), 'utf8');
    expect(script).toContain('CREATE DATABASE');
    expect(script).toContain('pg_database');
  });
});
