import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./endpoint-child.mjs', import.meta.url));

/**
 * Starts the endpoint in a child process on `port` and resolves once it listens.
 * The child's stdout goes to our stderr: our stdout carries only the reply line.
 */
export function startChildEndpoint({ serviceName, port, marksDir }) {
  const child = fork(script, [JSON.stringify({ serviceName, port, marksDir })], { stdio: ['ignore', 2, 2, 'ipc'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ready = new Promise((resolve, reject) => {
    child.once('message', (m) => (m?.ready ? resolve() : reject(new Error(`unexpected message ${JSON.stringify(m)}`))));
    child.once('exit', (code, signal) =>
      reject(new Error(`endpoint child exited (${code ?? signal}) before listening`)),
    );
  });
  return {
    child,
    ready,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
