import type { CliProcess } from '../../helpers/cli-process';

/**
 * Several worker processes on one task queue at once, as in production: any of them may run any
 * call. A test finds the one running a call by its pid (tools send it), SIGKILLs it, and may start
 * a replacement. Unlike worker-relay.ts (one worker at a time, replaced at once), the others keep
 * serving while one is dead: that is the failover under test.
 */
export interface WorkerProcesses {
  /** Every worker started, live or not, oldest first. */
  readonly all: readonly CliProcess[];
  /** SIGKILLs the worker with this pid; resolves with performance.now() at the signal once it has exited. */
  kill(pid: number): Promise<number>;
  /** Starts one more worker and waits until it polls. */
  add(): Promise<CliProcess>;
  /** SIGKILLs every live worker. */
  stop(): Promise<void>;
}

const READY = /worker polling task queue/;

export async function startWorkerProcesses(count: number, spawnWorker: () => CliProcess): Promise<WorkerProcesses> {
  const all: CliProcess[] = [];
  const live = (): CliProcess[] => all.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
  // Never outlive the test process, however it ends.
  process.once('exit', () => live().forEach((w) => w.child.kill('SIGKILL')));
  const add = async (): Promise<CliProcess> => {
    const worker = spawnWorker();
    all.push(worker);
    await worker.waitFor(READY);
    return worker;
  };
  const workers: WorkerProcesses = {
    all,
    add,
    async kill(pid) {
      const worker = all.find((w) => w.child.pid === pid);
      if (!worker) throw new Error(`no worker of this test has pid ${pid}`);
      const at = performance.now();
      worker.child.kill('SIGKILL');
      await worker.exited;
      return at;
    },
    async stop() {
      const running = live();
      running.forEach((w) => w.child.kill('SIGKILL'));
      await Promise.all(running.map((w) => w.exited));
    },
  };
  try {
    await Promise.all(Array.from({ length: count }, add));
  } catch (err) {
    await workers.stop();
    throw err;
  }
  return workers;
}
