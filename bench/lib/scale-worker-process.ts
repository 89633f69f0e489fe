import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ScaleWorkerMessage, ScaleWorkerSpec } from './scale-worker';
import { nextMessage } from './worker-messages';

type Ready = Extract<ScaleWorkerMessage, { type: 'ready' }>;
type Stopped = Extract<ScaleWorkerMessage, { type: 'stopped' }>;

/** A scale worker in a process of its own (lib/scale-worker.ts), ready to poll. */
export interface ScaleWorkerProcess {
  child: ChildProcess;
  ready: Ready;
  /** Rejects when the process exits before `stop`: a worker that dies fails the figure now, not at its timeout. */
  died: Promise<never>;
  /** Asks the worker to shut down; its CPU and peak RSS, or undefined when it did not say. Ends the process. */
  stop(): Promise<Stopped | undefined>;
}

export async function forkScaleWorker(spec: ScaleWorkerSpec, execArgv: readonly string[]): Promise<ScaleWorkerProcess> {
  const child = fork(path.join(__dirname, 'scale-worker.js'), [JSON.stringify(spec)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...execArgv],
  });
  const kill = (): void => void child.kill('SIGKILL');
  // The runner exits (done or interrupted): never leave a worker behind.
  process.once('exit', kill);
  let stopping = false;
  let stopped: Promise<Stopped | undefined> | undefined;
  const stop = async (): Promise<Stopped | undefined> => {
    stopping = true;
    if (!child.connected) return (kill(), undefined);
    child.send('stop');
    const said = await nextMessage(child, 'stopped', 60_000).catch(() => undefined);
    if (child.exitCode === null && child.signalCode === null) kill();
    return said?.type === 'stopped' ? said : undefined;
  };
  const died = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => {
      process.removeListener('exit', kill);
      if (!stopping) reject(new Error(`a scale worker exited mid-run (${signal ?? `code ${code}`})`));
    }),
  );
  died.catch(() => undefined);
  try {
    const ready = (await nextMessage(child, 'ready', 120_000)) as Ready;
    return {
      child,
      ready,
      died,
      // Once: later calls get the first call's answer.
      stop: () => (stopped ??= stop()),
    };
  } catch (err) {
    kill();
    throw err;
  }
}
