import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/dev-server/probes/free-port';
import { tokenSha256 } from '../../src/server/auth/token-hash';
import { startRedisServer, type RedisServer } from '../../test/helpers/redis-server';
import { spawnSoakProcess, type SoakProcess } from './soak-process';
import { writeSoakToolsModule } from './soak-tools-module';

/**
 * The production topology on one machine, around a running cluster (Temporal's four roles on
 * PostgreSQL): Redis for events, the chain store in a database of the cluster's PostgreSQL, two
 * `thoughtline serve` instances and two workers. Workers come in builds: `a` is the checkout, `b`
 * a copy of it under another package version, so its build id differs and the rolling deploy
 * moves new runs to it while open runs stay on `a`.
 */
export interface SoakEndpoints {
  temporalAddress: string;
  namespace: string;
  postgresPort: number;
  modelUrl: string;
  serviceUrl: string;
}

export interface SoakTopology {
  readonly taskQueue: string;
  readonly deploymentName: string;
  readonly storeUrl: string;
  readonly token: string;
  readonly triggerSecret: string;
  readonly redis: RedisServer;
  /** Every serve started; a restarted one replaces its entry, on the same port. */
  readonly serves: Array<{ url: string; process: SoakProcess }>;
  /** Every worker started, live or not, oldest first. */
  readonly workers: Array<{ build: 'a' | 'b'; process: SoakProcess }>;
  startWorker(build: 'a' | 'b'): Promise<SoakProcess>;
  restartServe(index: number): Promise<void>;
  stop(): Promise<void>;
}

const CLI = (root: string) => path.join(root, 'dist/cli/main.js');

/** A second build of the checkout: the same code under another package version (hence another build id). */
function secondBuild(projectRoot: string, dir: string): string {
  const root = path.join(dir, 'build-b');
  fs.mkdirSync(root, { recursive: true });
  // What the package ships and its workflow bundle reads: the compiled code and the vendored SQL grammars.
  for (const part of ['dist', 'vendor'])
    fs.cpSync(path.join(projectRoot, part), path.join(root, part), { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  fs.writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ ...manifest, version: `${manifest.version}-soak.b` }),
  );
  fs.symlinkSync(path.join(projectRoot, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

async function createStoreDatabase(port: number): Promise<string> {
  const client = new pg.Client({ connectionString: `postgres://temporal@127.0.0.1:${port}/postgres` });
  await client.connect();
  await client.query('DROP DATABASE IF EXISTS soak_store');
  await client.query('CREATE DATABASE soak_store');
  await client.end();
  return `postgres://temporal@127.0.0.1:${port}/soak_store`;
}

export async function startSoakTopology(
  projectRoot: string,
  dir: string,
  endpoints: SoakEndpoints,
): Promise<SoakTopology> {
  const taskQueue = `soak-${randomUUID().slice(0, 8)}`;
  const token = `tl_soak_${randomUUID()}`;
  const tokensFile = path.join(dir, 'tokens.json');
  fs.writeFileSync(
    tokensFile,
    JSON.stringify({ tokens: [{ sha256: tokenSha256(token), id: 'soak', roles: ['developer'] }] }),
    { mode: 0o600 },
  );
  const triggerSecret = randomUUID();
  const triggersFile = path.join(dir, 'triggers.json');
  const model = { provider: 'anthropic', model: 'soak-model' };
  fs.writeFileSync(
    triggersFile,
    JSON.stringify({
      triggers: {
        soak: {
          agent: 'soak_triggered',
          task: 'soak triggered trig of 2 steps',
          secretEnv: 'SOAK_TRIGGER_SECRET',
          model,
        },
      },
    }),
  );
  const [redis, storeUrl] = await Promise.all([startRedisServer(), createStoreDatabase(endpoints.postgresPort)]);
  // Its SIGKILL is sent at once, so it happens even on the way out.
  process.once('exit', () => void redis.stop());
  const builds = { a: projectRoot, b: secondBuild(projectRoot, dir) };
  const toolsDir = { a: fs.mkdtempSync(path.join(dir, 'tools-a-')), b: fs.mkdtempSync(path.join(dir, 'tools-b-')) };
  const toolsFile = {
    a: writeSoakToolsModule(builds.a, toolsDir.a),
    b: writeSoakToolsModule(builds.b, toolsDir.b),
  };
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    TEMPORAL_ADDRESS: endpoints.temporalAddress,
    TEMPORAL_NAMESPACE: endpoints.namespace,
    TEMPORAL_CONFIG_FILE: '/dev/null',
    THOUGHTLINE_TASK_QUEUE: taskQueue,
    THOUGHTLINE_DEPLOYMENT_NAME: taskQueue,
    THOUGHTLINE_EVENTS: redis.url,
    THOUGHTLINE_SIGNING_KEYS: path.join(dir, 'signing-keys.json'),
  };
  const workers: SoakTopology['workers'] = [];
  let workerCount = 0;
  const startWorker = async (build: 'a' | 'b'): Promise<SoakProcess> => {
    workerCount += 1;
    const worker = spawnSoakProcess(
      `worker-${build}${workerCount}`,
      CLI(builds[build]),
      ['worker', '--tools', toolsFile[build]],
      {
        ...base,
        ANTHROPIC_API_KEY: 'soak-key',
        ANTHROPIC_BASE_URL: endpoints.modelUrl,
        THOUGHTLINE_MODEL: 'anthropic/soak-model',
        SOAK_SERVICE_URL: endpoints.serviceUrl,
      },
      projectRoot,
    );
    workers.push({ build, process: worker });
    await worker.waitFor(/worker polling task queue/);
    return worker;
  };
  const ports = await Promise.all([freePort(), freePort()]);
  const serves: SoakTopology['serves'] = [];
  const startServe = async (i: number): Promise<void> => {
    const port = ports[i]!;
    const serve = spawnSoakProcess(
      `serve-${i + 1}`,
      CLI(projectRoot),
      ['serve', '--port', String(port), '--tokens', tokensFile, '--triggers', triggersFile, '--store', storeUrl],
      { ...base, SOAK_TRIGGER_SECRET: triggerSecret },
      projectRoot,
    );
    serves[i] = { url: `http://127.0.0.1:${port}`, process: serve };
    await serve.waitFor(/serving http/);
  };
  // The first worker alone: it bundles the workflow code once into the shared cache.
  await startWorker('a');
  await Promise.all([startWorker('a'), startServe(0), startServe(1)]);
  return {
    taskQueue,
    deploymentName: taskQueue,
    storeUrl,
    token,
    triggerSecret,
    redis,
    serves,
    workers,
    startWorker,
    async restartServe(i) {
      await serves[i]!.process.stop('SIGKILL');
      await startServe(i);
    },
    async stop() {
      await Promise.all([
        ...workers.map((w) => w.process.stop('SIGKILL')),
        ...serves.map((s) => s.process.stop('SIGKILL')),
      ]);
      await redis.stop();
    },
  };
}
