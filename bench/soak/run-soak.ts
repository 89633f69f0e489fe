import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { clusterPaths } from '../../src/dev-server/cluster/cluster-paths';
import { postgresPid } from '../../src/dev-server/cluster/database/cluster-postgres';
import { readClusterState } from '../../src/dev-server/cluster/lifecycle/cluster-state';
import { findProjectRoot } from '../../src/dev-server/project-paths';
import { startFakeExternalService } from '../../test/chaos/lib/fake-external-service';
import { machineInfo } from '../lib/machine-info';
import { soakApi } from './soak-api';
import { soakChecks } from './soak-checks';
import { FAULT_PLAN, strike } from './soak-faults';
import { memoryVerdicts, soakMinutes } from './soak-minutes';
import { soakMix, soakTask } from './soak-mix';
import { startSoakModelServer } from './soak-model-server';
import { soakReportHtml } from './soak-report-html';
import type { ProcessMinute, SoakFault, SoakReport } from './soak-report-types';
import { driveRun, followRun, type RunDeps, type SoakRun } from './soak-runs';
import { processSampler } from './soak-sampler';
import { soakSettings } from './soak-settings';
import { startSoakTopology } from './soak-topology';
import { startWatcherPool } from './soak-watcher-pool';

/**
 * `npm run soak`: the production topology under steady mixed load for SOAK_MINUTES (60 by default),
 * with faults on a schedule, measured minute by minute; ends with the zero checks and writes the
 * report (JSON, and an HTML page with charts). Exits 1 when a check fails. scripts/soak.sh starts
 * the cluster it runs on and passes its address (SOAK_TEMPORAL_ADDRESS, SOAK_CLUSTER).
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the soak with npm run soak (scripts/soak.sh)`);
  return value;
}

async function storePerRun(storeUrl: string, runs: number): Promise<{ storeRows: number; storeBytes: number }> {
  const client = new pg.Client({ connectionString: storeUrl });
  await client.connect();
  const { rows } = await client.query<{ rows: string; bytes: string }>(
    'SELECT sum(n_live_tup) AS rows, sum(pg_total_relation_size(relid)) AS bytes FROM pg_stat_user_tables',
  );
  await client.end();
  return { storeRows: Math.round(Number(rows[0]!.rows) / runs), storeBytes: Math.round(Number(rows[0]!.bytes) / runs) };
}

async function historyPerRun(
  client: Client,
  taskQueue: string,
): Promise<{ historyBytes: number; historyEvents: number }> {
  let count = 0;
  let bytes = 0;
  let events = 0;
  for await (const w of client.workflow.list({
    query: `TaskQueue = '${taskQueue}' AND ExecutionStatus != 'Running'`,
  })) {
    count += 1;
    bytes += Number(w.historySize ?? 0);
    events += Number(w.historyLength ?? 0);
  }
  return {
    historyBytes: Math.round(bytes / Math.max(1, count)),
    historyEvents: Math.round(events / Math.max(1, count)),
  };
}

async function main(): Promise<number> {
  const settings = soakSettings();
  const projectRoot = findProjectRoot();
  const clusterName = required('SOAK_CLUSTER');
  const namespace = process.env.SOAK_TEMPORAL_NAMESPACE ?? 'default';
  const paths = clusterPaths(projectRoot, clusterName);
  const state = readClusterState(paths.stateFile);
  if (!state) throw new Error(`cluster ${clusterName} has no state file: start it first`);
  const dir = fs.mkdtempSync(path.join(projectRoot, '.thoughtline/tmp/soak-'));
  const connection = await Connection.connect({ address: required('SOAK_TEMPORAL_ADDRESS') });
  const client = new Client({ connection, namespace });

  const counts = new Map<string, number>();
  const [model, service] = await Promise.all([
    startSoakModelServer({ delayMs: settings.modelDelayMs }),
    startFakeExternalService({
      onEffect: (a) => {
        if (a.applied) counts.set(String(a.args['run']), (counts.get(String(a.args['run'])) ?? 0) + 1);
        return 'reply';
      },
    }),
  ]);
  const topology = await startSoakTopology(projectRoot, dir, {
    temporalAddress: required('SOAK_TEMPORAL_ADDRESS'),
    namespace,
    postgresPort: state.ports.postgres,
    modelUrl: model.baseUrl,
    serviceUrl: service.url,
  });
  log(
    `topology up: 2 workers, 2 serves (${topology.serves.map((s) => s.url).join(', ')}), task queue ${topology.taskQueue}`,
  );
  const api = soakApi({
    serves: topology.serves,
    token: topology.token,
    triggerSecret: topology.triggerSecret,
    keyPrefix: topology.taskQueue,
  });
  const deps: RunDeps = {
    api,
    client,
    serves: topology.serves,
    token: topology.token,
    effectsOf: (label) => counts.get(label) ?? 0,
  };
  const runs: SoakRun[] = [];
  const following: Array<Promise<void>> = [];
  const sampler = processSampler(() => {
    const pids: Record<string, { pid: number; tree?: boolean }> = { driver: { pid: process.pid } };
    for (const w of topology.workers.filter((x) => x.process.alive())) pids[w.process.name] = { pid: w.process.pid };
    topology.serves.forEach((s, i) => (pids[`serve-${i + 1}`] = { pid: s.process.pid }));
    for (const p of readClusterState(paths.stateFile)?.processes ?? []) pids[`temporal-${p.role}`] = { pid: p.pid };
    const postmaster = postgresPid(paths);
    if (postmaster) pids['postgres'] = { pid: postmaster, tree: true };
    if (topology.redis.pid) pids['redis'] = { pid: topology.redis.pid };
    return pids;
  });
  sampler.sample();

  const loadStart = performance.now();
  const durationMs = settings.minutes * 60_000;
  const readings: Array<Record<string, ProcessMinute>> = [];
  const minuteTimer = setInterval(() => {
    // A reading that fails (a state file being rewritten by a restart) is a gap, not the soak's end.
    try {
      readings.push(sampler.sample());
    } catch (err) {
      readings.push({});
      log(`reading the processes: ${String(err)}`);
    }
    const open = runs.filter((r) => r.runId && r.endedAt === undefined).length;
    log(`minute ${readings.length}: ${runs.length} runs asked for, ${open} open, ${model.calls()} model calls`);
  }, 60_000);
  const pool = startWatcherPool({ count: settings.watchers, runs, serves: topology.serves, token: topology.token });

  // Faults on their schedule, one after the other, each logged with its time.
  const faults: SoakFault[] = [];
  const faulting = (async () => {
    for (const plan of FAULT_PLAN) {
      await sleep(Math.max(0, loadStart + plan.at * durationMs - performance.now()));
      const atS = Math.round((performance.now() - loadStart) / 100) / 10;
      log(`fault: ${plan.kind}`);
      // The probe: a one-step run asked for as the fault strikes; the fault has healed once it has finished.
      const probe = {
        label: `p${faults.length}${plan.kind[0]}`,
        kind: 'short',
        steps: 1,
        atS,
        expected: 'finished',
      } as const;
      following.push(driveRun(deps, probe, runs));
      const detail = await strike(plan.kind, { topology, client, clusterName, log }).catch(
        (err) => `FAILED: ${String(err)}`,
      );
      faults.push({ atS, kind: plan.kind, detail, probe: probe.label });
      log(`fault: ${plan.kind}: ${detail}`);
    }
  })();

  // A schedule firing every minute, and a signed trigger delivery every two.
  await api.createSchedule('soak-sched', soakTask('scheduled', 'sched', 2));
  const seen = new Set<string>();
  // The schedule keeps its latest five runs: read every 20 s, it misses none of a run a minute.
  const readSchedule = () =>
    api
      .scheduleRuns('soak-sched')
      .then((started) => {
        for (const { runId, startedAt } of started.filter((r) => !seen.has(r.runId))) {
          seen.add(runId);
          // Asked for by the schedule when it fired, on this process's clock.
          const requestedAt = performance.now() - (Date.now() - startedAt);
          const run: SoakRun = {
            label: 'sched',
            kind: 'scheduled',
            runId,
            expected: 'finished',
            stepsExpected: 2,
            requestedAt,
          };
          runs.push(run);
          following.push(followRun(deps, run));
        }
      })
      .catch((err) => log(`reading the schedule's runs: ${String(err)}`));
  const scheduled = setInterval(() => void readSchedule(), 20_000);
  const triggering = setInterval(() => {
    const requestedAt = performance.now();
    const run: SoakRun = { label: 'trig', kind: 'triggered', expected: 'finished', stepsExpected: 2, requestedAt };
    runs.push(run);
    following.push(
      api
        .trigger({ delivery: runs.length })
        .then((runId) => followRun(deps, Object.assign(run, { runId })))
        .catch((err) => void (run.problem = `its delivery failed: ${String(err)}`)),
    );
  }, 120_000);

  // The steady arrivals.
  for (const arrival of soakMix({
    minutes: settings.minutes,
    perMinute: settings.runsPerMinute,
    seed: settings.seed,
  })) {
    await sleep(Math.max(0, loadStart + arrival.atS * 1_000 - performance.now()));
    following.push(driveRun(deps, arrival, runs));
  }
  await sleep(Math.max(0, loadStart + durationMs - performance.now()));
  clearInterval(triggering);
  clearInterval(scheduled);
  // Paused, read a last time, then deleted: no run it started goes unfollowed.
  await api.pauseSchedule('soak-sched').catch((err) => log(`pausing the schedule: ${String(err)}`));
  await readSchedule();
  await api.deleteSchedule('soak-sched').catch((err) => log(`deleting the schedule: ${String(err)}`));
  log(`load ended; waiting up to ${settings.drainMs / 1_000} s for open runs and the fault schedule`);
  const drained = sleep(settings.drainMs);
  await Promise.race([faulting, drained]);
  await Promise.race([Promise.all(following), drained]);
  clearInterval(minuteTimer);
  readings.push(sampler.sample());
  await pool.stop();

  const { totals, problems } = soakChecks({ runs, poolWatches: pool.watches, attempts: service.attempts });
  const ended = runs.filter((r) => r.endedAt !== undefined).length;
  for (const f of faults) {
    const probe = runs.find((r) => r.label === f.probe);
    if (probe?.endedAt !== undefined && !probe.problem) f.healedMs = Math.round(probe.endedAt - probe.requestedAt);
    if (f.detail.startsWith('FAILED')) problems.push(`fault ${f.kind} at ${f.atS} s: ${f.detail}`);
  }
  const minutes = soakMinutes(runs, loadStart, readings);
  const memory = memoryVerdicts(minutes, settings.settleMinutes, settings.memoryBoundPct);
  for (const m of memory.filter((v) => !v.withinBound))
    problems.push(
      `${m.process} grew ${m.growthPct}% after settling (${m.settledMb} → ${m.lastMb} MB), over ${settings.memoryBoundPct}%`,
    );
  if (model.errors.length > 0)
    problems.push(`the model could not read ${model.errors.length} requests: ${model.errors[0]}`);
  const machine = machineInfo(projectRoot, 'cluster');
  const report: SoakReport = {
    commit: machine.gitCommit ?? 'unknown',
    startedAt: new Date(Date.now() - (performance.now() - loadStart)).toISOString(),
    machine: `${machine.cpuCount} × ${machine.cpuModel}, ${machine.memoryGB} GB, Node ${machine.node}`,
    settings: {
      minutes: settings.minutes,
      runsPerMinute: settings.runsPerMinute,
      watchers: settings.watchers,
      memoryBoundPct: settings.memoryBoundPct,
      settleMinutes: settings.settleMinutes,
    },
    minutes,
    faults,
    totals,
    perRun: {
      ...(await storePerRun(topology.storeUrl, Math.max(1, ended)).catch(() => ({ storeRows: NaN, storeBytes: NaN }))),
      ...(await historyPerRun(client, topology.taskQueue)),
    },
    memory,
    problems,
  };
  fs.mkdirSync(path.dirname(settings.out), { recursive: true });
  fs.writeFileSync(settings.out, `${JSON.stringify(report, null, 2)}\n`);
  if (settings.html) fs.writeFileSync(settings.html, soakReportHtml(report));
  log(
    `${totals.started} runs, ${JSON.stringify(totals.ended)}; lost ${totals.lost}, unexpected ${totals.unexpectedEndings}, ` +
      `duplicate effects ${totals.duplicateEffects}, missing ${totals.missingEffects}; ${totals.watchersFollowed} watches, ` +
      `missed ${totals.watcherMissed}, repeated ${totals.watcherRepeated}; ${api.retries()} requests sent again`,
  );
  for (const f of faults) log(`fault at ${f.atS} s ${f.kind}: healed in ${f.healedMs ?? '—'} ms; ${f.detail}`);
  for (const m of memory) log(`memory ${m.process}: ${m.settledMb} → ${m.lastMb} MB (${m.growthPct}%)`);
  for (const p of problems) log(`PROBLEM: ${p}`);
  log(`report: ${settings.out}${settings.html ? ` and ${settings.html}` : ''}`);
  await topology.stop();
  await Promise.all([model.close(), service.close()]);
  await connection.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return problems.length === 0 ? 0 : 1;
}

// Interrupted (CI's timeout, Ctrl-C): exit, so every process the soak started is killed on the way out.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
