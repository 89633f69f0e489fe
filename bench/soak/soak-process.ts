import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A process the soak starts (a worker, a serve): its output kept to the last 64 KiB, since an
 * hour of logs must not grow the soak's memory, and a wait for a line that says it is ready.
 */
export interface SoakProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pid: number;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  readonly exited: Promise<number | null>;
  alive(): boolean;
  /** Sends the signal and resolves once the process has exited. */
  stop(signal: NodeJS.Signals): Promise<void>;
}

const KEEP_CHARS = 64 * 1024;

/** Every process started and not yet ended: none outlives the soak, however it ends. */
const live = new Set<ChildProcess>();
process.once('exit', () => live.forEach((child) => child.kill('SIGKILL')));

export function spawnSoakProcess(
  name: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): SoakProcess {
  const child = spawn(process.execPath, [script, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > KEEP_CHARS * 2) out = out.slice(-KEEP_CHARS);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => (ended = true));
  live.add(child);
  void exited.then(() => live.delete(child));
  return {
    name,
    child,
    pid: child.pid!,
    output: () => out,
    alive: () => !ended,
    exited,
    async waitFor(pattern, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out)) {
        if (ended) throw new Error(`${name} exited before printing ${pattern}:\n${out.slice(-4_000)}`);
        if (Date.now() > deadline) throw new Error(`${name}: timed out waiting for ${pattern}:\n${out.slice(-4_000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop(signal) {
      if (ended) return;
      child.kill(signal);
      await exited;
    },
  };
}
