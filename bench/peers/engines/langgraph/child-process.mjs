import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const workerFile = fileURLToPath(new URL('./recover-worker.mjs', import.meta.url));

/**
 * Starts recover-worker.mjs with its job. `result` settles with the worker's JSON line, or
 * rejects when it exits without one (its stderr goes to ours, where the logs belong).
 */
export function startWorker(job) {
  const child = spawn(process.execPath, [workerFile, JSON.stringify(job)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const result = new Promise((resolve, reject) => {
    child.on('error', reject);
    // 'close', not 'exit': only then has all of stdout been read.
    child.on('close', (code, signal) => {
      const line = out.trim().split('\n').at(-1);
      if (code === 0 && line) resolve(JSON.parse(line));
      else reject(new Error(`worker ${child.pid} (${job.mode}) exited with ${signal ?? code}`));
    });
  });
  return { child, result };
}
