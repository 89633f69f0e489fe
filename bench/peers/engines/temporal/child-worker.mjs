import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./worker-process.mjs', import.meta.url));

/** A worker process (worker-process.mjs); its output goes to this process's stderr, never stdout. */
export function spawnWorker(spec) {
  return spawn(process.execPath, [script, JSON.stringify(spec)], { stdio: ['ignore', 2, 2] });
}

/** Ends a worker that still runs: SIGTERM (Worker.run shuts down on it), SIGKILL after 10 s. */
export async function stopWorker(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
