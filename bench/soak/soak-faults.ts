import type { Client } from '@temporalio/client';
import { listVersions } from '../../src/deployment';
import { restartClusterPostgres, restartServerRoles } from '../../src/dev-server/cluster';
import type { SoakFault } from './soak-report-types';
import type { SoakTopology } from './soak-topology';

/**
 * The faults a soak strikes, at fixed fractions of its length so a short soak has them all:
 * a worker SIGKILLed (a replacement of its build starts), a serve instance SIGKILLed and started
 * again, PostgreSQL restarted, the Temporal frontend restarted, a rolling deploy of a second build
 * halfway (new workers first, the old ones stopped once their pinned runs have drained), and one
 * more SIGKILL, of a worker of the new build. Each is logged with its time and what it did.
 */
export interface FaultPlan {
  at: number;
  kind: SoakFault['kind'];
}

export const FAULT_PLAN: readonly FaultPlan[] = [
  { at: 0.15, kind: 'worker_kill' },
  { at: 0.3, kind: 'serve_restart' },
  { at: 0.42, kind: 'postgres_restart' },
  { at: 0.5, kind: 'rolling_deploy' },
  { at: 0.68, kind: 'frontend_restart' },
  { at: 0.82, kind: 'worker_kill' },
];

export interface FaultDeps {
  topology: SoakTopology;
  client: Client;
  clusterName: string;
  log(line: string): void;
}

const seconds = (ms: number) => `${(ms / 1_000).toFixed(1)} s`;
const DRAIN_LIMIT_MS = 600_000;

async function killWorker(d: FaultDeps): Promise<string> {
  const live = d.topology.workers.filter((w) => w.process.alive());
  // The newest build's workers: before the deploy a's, after it b's.
  const build = live.some((w) => w.build === 'b') ? 'b' : 'a';
  const victim = live.filter((w) => w.build === build)[0]!;
  const at = performance.now();
  await victim.process.stop('SIGKILL');
  const replacement = await d.topology.startWorker(build);
  return `${victim.process.name} (pid ${victim.process.pid}) SIGKILLed; ${replacement.name} polling ${seconds(performance.now() - at)} later`;
}

async function restartServe(d: FaultDeps): Promise<string> {
  const at = performance.now();
  const before = d.topology.serves[0]!.process;
  await d.topology.restartServe(0);
  return `${before.name} (pid ${before.pid}) SIGKILLed, serving again on its port ${seconds(performance.now() - at)} later`;
}

async function rollingDeploy(d: FaultDeps): Promise<string> {
  const at = performance.now();
  const old = d.topology.workers.filter((w) => w.build === 'a' && w.process.alive());
  const before = await listVersions(d.client, d.topology.deploymentName);
  const oldBuild = before.find((v) => v.status === 'current')?.buildId;
  if (oldBuild === undefined)
    throw new Error(`no version of ${d.topology.deploymentName} is current before the deploy`);
  // New workers one at a time: the first makes its build current; the second joins it.
  await d.topology.startWorker('b');
  await d.topology.startWorker('b');
  const switchedAt = performance.now();
  // The old build keeps its pinned runs until they end; its workers stop once Temporal says drained.
  // Its longest run takes a few minutes (an approval given after 30 s, 50 steps): ten is a hang.
  const deadline = performance.now() + DRAIN_LIMIT_MS;
  for (let status = ''; status !== 'drained';) {
    if (performance.now() > deadline)
      throw new Error(
        `build a (${oldBuild}) still ${status || 'unlisted'} ${seconds(DRAIN_LIMIT_MS)} after the switch`,
      );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const versions = await listVersions(d.client, d.topology.deploymentName).catch((err: unknown) => {
      d.log(`listing versions: ${String(err)}`);
      return [];
    });
    status = versions.find((v) => v.buildId === oldBuild)?.status ?? '';
  }
  const drainedAt = performance.now();
  await Promise.all(old.map((w) => w.process.stop('SIGTERM')));
  return (
    `build b current ${seconds(switchedAt - at)} after the deploy began; build a (${oldBuild}) drained ` +
    `${seconds(drainedAt - switchedAt)} later, its ${old.length} workers stopped with SIGTERM`
  );
}

export async function strike(kind: SoakFault['kind'], d: FaultDeps): Promise<string> {
  switch (kind) {
    case 'worker_kill':
      return killWorker(d);
    case 'serve_restart':
      return restartServe(d);
    case 'postgres_restart': {
      const at = performance.now();
      await restartClusterPostgres({ name: d.clusterName, log: () => {} });
      return `PostgreSQL (Temporal's persistence and the chain store) down and back in ${seconds(performance.now() - at)}`;
    }
    case 'frontend_restart': {
      const at = performance.now();
      await restartServerRoles({ name: d.clusterName, roles: ['frontend'], log: () => {} });
      return `the Temporal frontend down and serving the namespace again in ${seconds(performance.now() - at)}`;
    }
    case 'rolling_deploy':
      return rollingDeploy(d);
  }
}
