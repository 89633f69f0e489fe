import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { watchTrees, type TreeUsage } from './process-tree-usage';

/** One engine of the side-by-side benchmark: how to run its script, and the servers it uses. */
export interface EngineSpec {
  name: string;
  /** Shown in tables. */
  title: string;
  /** The script and the folder it runs in (bench/peers, for the peers' own node_modules). */
  script: string;
  cwd: string;
  /** Pids of the infrastructure the engine uses (its server, its database), counted with it. */
  infraPids(): number[];
  /** Temporal engines: their runs' histories can be read for billable actions. */
  temporal: boolean;
  /**
   * The longest run the engine can finish within the benchmark's time (iterations), with why;
   * its long runs stop there and the step indices past it are not measured.
   */
  longRunCap?: { iterations: number; why: string };
  /** The most concurrent runs the engine is asked for, with why. */
  concurrentCap?: { runs: number; why: string };
}

export interface EngineCall<T> {
  reply: T;
  usage: TreeUsage;
  wallMs: number;
}

/**
 * Runs one scenario of one engine in its own process, watching the CPU and memory of that process
 * tree and of the engine's infrastructure meanwhile. Rejects with the engine's last stderr lines
 * when it fails, or when it has not replied within `timeoutMs` (then it is killed).
 */
export function callEngine<T>(
  engine: EngineSpec,
  request: Record<string, unknown>,
  opts: { workDir: string; timeoutMs: number; log: (line: string) => void },
): Promise<EngineCall<T>> {
  const requestFile = path.join(opts.workDir, `request-${engine.name}-${Date.now()}.json`);
  fs.writeFileSync(requestFile, JSON.stringify(request));
  const started = performance.now();
  const child = spawn(process.execPath, [engine.script, '--request-file', requestFile], {
    cwd: engine.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watch = watchTrees(() => [...(child.pid ? [child.pid] : []), ...engine.infraPids()]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (stderr.length > 1_000_000) stderr = stderr.slice(-200_000);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
  return new Promise((resolve, reject) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const usage = watch.stop();
      const wallMs = performance.now() - started;
      fs.rmSync(requestFile, { force: true });
      const line = stdout
        .trimEnd()
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{'));
      if (code === 0 && line) {
        try {
          return resolve({ reply: JSON.parse(line) as T, usage, wallMs });
        } catch {
          // Falls through to the failure below.
        }
      }
      const how = signal ? `was killed (${signal}, limit ${Math.round(opts.timeoutMs / 1000)} s)` : `exited ${code}`;
      const tail = stderr.trimEnd().split('\n').slice(-8).join('\n');
      reject(new Error(`${engine.name} ${request['scenario']} ${how}${tail ? `:\n${tail}` : ''}`));
    });
  });
}
