import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findProjectRoot } from '../../src/dev-server/project-paths';
import { machineInfo } from '../lib/machine-info';
import { installPeers } from '../lib/run-peers';
import { engineSpec } from './engine-specs';
import { startInfra } from './infra/start-infra';
import {
  measureConcurrent,
  measureRecovery,
  measureState,
  measureSteps,
  medianConcurrent,
  type ConcurrentFigures,
  type ScenarioContext,
} from './scenarios';
import { loadSideBySideConfig } from './side-by-side-config';
import { markdownTable, type EngineResults, type SideBySideResults } from './side-by-side-results';
import { renderSideBySideHtml } from './side-by-side-html';
import { actionsPerThousandIterations } from './temporal-actions';

/**
 * `npm run bench:peers`: the same ReAct loop on every durable engine, one machine, one session,
 * engines alternated (bench/peers/engines/README.md). Prints a table; writes JSON, markdown and
 * an HTML page with charts to .thoughtline/bench-peers/ (or BENCH_OUT's folder).
 */
async function main(): Promise<number> {
  const started = Date.now();
  const projectRoot = findProjectRoot();
  const config = loadSideBySideConfig(process.env);
  const log = (line: string): void =>
    console.error(`[bench:peers ${Math.round((Date.now() - started) / 1000)} s] ${line}`);
  const peersDir = path.join(projectRoot, 'bench', 'peers');
  const outDir = config.out
    ? path.dirname(path.resolve(config.out))
    : path.join(projectRoot, '.thoughtline', 'bench-peers');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-peers-'));
  const sizes = config.gate ? 'gate sizes (BENCH_GATE=1)' : config.quick ? 'quick sizes (BENCH_QUICK=1)' : 'full sizes';
  log(`${sizes}; engines: ${config.engines.join(', ')}`);
  const installError = await installPeers(peersDir, log);
  if (installError) {
    log(`the peers' packages did not install: ${installError}`);
    return 1;
  }
  const needs = {
    postgres: config.engines.some((e) => e === 'dbos' || e === 'langgraph-pg'),
    restate: config.engines.includes('restate'),
  };
  const infra = await startInfra(projectRoot, peersDir, workDir, log, needs);
  const stop = async (): Promise<void> => {
    await infra.stop().catch((err: unknown) => log(`stopping the servers: ${String(err)}`));
    fs.rmSync(workDir, { recursive: true, force: true });
  };
  // Interrupted: stop the servers this run started, then quit.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void stop().then(() => process.exit(130)));
  try {
    const ctx: ScenarioContext = { workDir, infra: infra.request(workDir), timeoutMs: config.timeoutMs, log };
    const specs = config.engines.map((name) => engineSpec(name, projectRoot, peersDir, infra));
    const errors: Record<string, string[]> = {};
    const notes: Record<string, string[]> = {};
    const results: EngineResults[] = specs.map((s) => ({
      name: s.name,
      title: s.title,
      errors: (errors[s.name] ??= []),
      notes: (notes[s.name] ??= []),
    }));
    for (const spec of specs) {
      const capped = spec.concurrentCap;
      if (capped && capped.runs < config.concurrent.runs)
        notes[spec.name]!.push(`${capped.runs} concurrent runs, not ${config.concurrent.runs}: ${capped.why}`);
      const cut = config.state.filter((p) => p.to > (spec.longRunCap?.iterations ?? Infinity));
      if (cut.length)
        notes[spec.name]!.push(
          `stored state not measured for ${cut.map((p) => p.label).join(', ')}: runs past ${spec.longRunCap!.iterations} iterations, the long runs' cap`,
        );
    }
    const of = (name: string): EngineResults => results.find((r) => r.name === name)!;
    const attempt = async (name: string, what: string, fn: () => Promise<void>): Promise<void> => {
      try {
        await fn();
      } catch (err) {
        errors[name]!.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
        log(`${name} ${what} failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      }
    };

    // A fresh dev server for each scenario and each round of long runs: none inherits the
    // histories (and memory) of the last.
    const renew = async (): Promise<void> => {
      await infra.renewTemporal();
      ctx.infra = infra.request(workDir);
    };
    const steps = await measureSteps(ctx, specs, config, errors, notes, renew);
    for (const [name, figures] of Object.entries(steps))
      Object.assign(of(name), { steps: figures, version: figures.version });
    await renew();
    for (const spec of specs) {
      await attempt(spec.name, 'state', async () => {
        const state = await measureState(ctx, spec, config);
        of(spec.name).state = state;
        const pair = config.state[0]!;
        const at = (n: number) =>
          state.runs.find((r) => r.iterations === n && r.observationBytes === pair.observationBytes)!;
        if (spec.temporal) {
          const a = await actionsPerThousandIterations(infra.temporalClient, at(pair.from), at(pair.to));
          of(spec.name).actions = { perThousandIterations: a.actions, usd: a.usd };
        }
      });
    }
    const recover = config.recover;
    if (recover) {
      await renew();
      for (const spec of specs)
        await attempt(
          spec.name,
          'recover',
          async () => void (of(spec.name).recover = await measureRecovery(ctx, spec, recover)),
        );
    }
    // Rounds of every engine, the order reversed each round (a busy moment of the machine falls on all); medians kept.
    const rounds = new Map<string, ConcurrentFigures[]>();
    for (let round = 0; round < config.concurrent.repeats; round++) {
      await renew();
      for (const spec of round % 2 === 0 ? specs : [...specs].reverse())
        await attempt(spec.name, 'concurrent', async () => {
          const figures = await measureConcurrent(ctx, spec, config);
          rounds.set(spec.name, [...(rounds.get(spec.name) ?? []), figures]);
          of(spec.name).concurrent = medianConcurrent(rounds.get(spec.name)!);
        });
    }

    const all: SideBySideResults = {
      date: new Date().toISOString(),
      commit: gitCommit(projectRoot),
      quick: config.quick,
      machine: machineInfo(projectRoot, infra.temporal.server.cliVersion),
      versions: infra.versions,
      config: { ...config },
      engines: results,
      infraErrors: infra.errors,
      wallSeconds: (Date.now() - started) / 1000,
    };
    fs.mkdirSync(outDir, { recursive: true });
    const json = config.out ? path.resolve(config.out) : path.join(outDir, 'result.json');
    fs.writeFileSync(json, `${JSON.stringify(all, null, 2)}\n`);
    const table = markdownTable(all);
    fs.writeFileSync(json.replace(/\.json$/, '.md'), `${table}\n`);
    fs.writeFileSync(json.replace(/\.json$/, '.html'), renderSideBySideHtml(all));
    console.log(table);
    for (const r of results) for (const n of r.notes) console.log(`\n${r.title} (note): ${n}`);
    for (const r of results) for (const e of r.errors) console.log(`\n${r.title}: ${e}`);
    for (const e of infra.errors) console.log(`\n${e}`);
    log(`done in ${Math.round(all.wallSeconds)} s; results in ${json} (.md, .html beside it)`);
    const failed = results.filter((r) => r.errors.length > 0).length + infra.errors.length;
    return failed > 0 ? 1 : 0;
  } finally {
    await stop();
  }
}

function gitCommit(projectRoot: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: projectRoot, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
