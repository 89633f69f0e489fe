import type { CliProcess } from '../../helpers/cli-process';

/**
 * One worker process at a time on a task queue, SIGKILLed on demand and replaced by a fresh one
 * at once (as is one that exits on its own). Generations number the processes, so a kill aimed
 * at a worker that is already gone is dropped instead of killing its successor, and kills asked
 * for while one is under way join it.
 */
export interface WorkerKill {
  /** performance.now() when SIGKILL was sent. */
  at: number;
  /** performance.now() when its exit was seen; requests it sent just before dying may arrive up to then (or a moment after). */
  exitedAt?: number;
  generation: number;
  reason: string;
}

export interface WorkerRelay {
  /** The live worker's generation, from 1. */
  readonly generation: number;
  readonly kills: readonly WorkerKill[];
  /** Kills asked for that sent no signal: their worker was already dying or gone, so another kill covered them. */
  readonly covered: readonly WorkerKill[];
  /** Workers that exited without being killed (each replaced at once), with their last output. */
  readonly unexpectedExits: readonly string[];
  /** SIGKILLs generation `generation` if it is the live one, then starts the next; resolves once that one is spawned. */
  kill(generation: number, reason: string): Promise<void>;
  /** Kills the live worker for good. */
  stop(): Promise<void>;
}

const READY = /worker polling task queue/;
// Past this many, a worker that keeps dying is broken, not unlucky: stop replacing it.
const MAX_REPLACED_EXITS = 5;

export async function startWorkerRelay(spawnWorker: () => CliProcess): Promise<WorkerRelay> {
  const kills: WorkerKill[] = [];
  const covered: WorkerKill[] = [];
  const unexpectedExits: string[] = [];
  let generation = 0;
  let current: CliProcess;
  let killing: Promise<void> | undefined;
  let stopped = false;

  function launch(): CliProcess {
    const worker = spawnWorker();
    generation += 1;
    const mine = generation;
    void worker.exited.then((code) => {
      if (kills.some((k) => k.generation === mine) || stopped) return;
      unexpectedExits.push(
        `worker ${mine} exited with ${code} at ${performance.now().toFixed(0)} ms:\n${worker.output().slice(-2_000)}`,
      );
      // A worker that died on its own is replaced too, so the runs can still finish and the test can say why.
      if (mine === generation && unexpectedExits.length <= MAX_REPLACED_EXITS) current = launch();
    });
    return worker;
  }

  current = launch();
  // Never outlive the test process, however it ends.
  process.once('exit', () => current.child.kill('SIGKILL'));
  try {
    await current.waitFor(READY);
  } catch (err) {
    stopped = true;
    current.child.kill('SIGKILL');
    throw err;
  }

  return {
    get generation() {
      return generation;
    },
    kills,
    covered,
    unexpectedExits,
    kill(target, reason) {
      if (stopped) return Promise.resolve();
      if (target !== generation || killing) {
        covered.push({ at: performance.now(), generation: target, reason });
        return killing ?? Promise.resolve();
      }
      const victim = current;
      const kill: WorkerKill = { at: performance.now(), generation: target, reason };
      kills.push(kill);
      victim.child.kill('SIGKILL');
      killing = victim.exited.then(() => {
        kill.exitedAt = performance.now();
        killing = undefined;
        if (!stopped) current = launch();
      });
      return killing;
    },
    async stop() {
      stopped = true;
      await killing;
      current.child.kill('SIGKILL');
      await current.exited;
    },
  };
}
