import { CancellationScope, sleep } from '@temporalio/workflow';
import type { RunOutcome } from '../loop/react-loop';

/** What cut the run short, and the words the chain and the summary use for it. */
export interface Interruption {
  by: 'timeout' | 'cancelled';
  why: string;
}

/** How the loop's promise settled: an outcome, or what it threw (a handover, a bad input, a bug). */
export type Settled = { outcome: RunOutcome } | { error: unknown };

/**
 * The ways a run is cut short from outside the loop, raced against it: the `cancel` signal once
 * its grace period ends, Temporal's own cancel (handle.cancel(), the Web UI), and the run's
 * deadline. The loop runs in `loopScope`, which an interruption cancels; in-flight work then
 * gets a settle window to acknowledge, so the chain can say what happened to it. Deterministic:
 * every wait is a workflow timer.
 */
export class Interrupts {
  readonly loopScope = new CancellationScope();
  /** Whichever comes first: the loop's ending (once watched) or an interruption. */
  readonly first: Promise<Settled | Interruption>;
  private settleFirst: (first: Settled | Interruption) => void = () => undefined;
  /** How the loop settled, once it did; and who waits for that after an interruption came first. */
  private loopEnded: Settled | undefined;
  private settleLate: ((late: Settled) => void) | undefined;

  constructor() {
    this.first = new Promise((resolve) => {
      this.settleFirst = resolve;
    });
  }

  private interrupt(interruption: Interruption): void {
    this.settleFirst(interruption);
  }

  /** After the `cancel` signal: the current step may finish within `graceMs`, then the loop is cancelled like a Temporal cancel. */
  cancelAfterGrace(graceMs: number, why: () => string): void {
    void sleep(graceMs).then(
      () => {
        this.interrupt({ by: 'cancelled', why: why() });
        this.loopScope.cancel();
      },
      () => undefined,
    );
  }

  /** Temporal's own cancel interrupts at once; the loop's scope, a child of the root, is cancelled with it. */
  onTemporalCancel(why: () => string): void {
    CancellationScope.current().cancelRequested.catch(() => this.interrupt({ by: 'cancelled', why: why() }));
  }

  /** The run's deadline, counted from when the agent run (not this Temporal run) started. */
  startDeadline(timeoutMs: number, startedAtMs: number): void {
    const left = startedAtMs + timeoutMs - Date.now();
    void sleep(Math.max(1, left)).then(
      () => {
        this.interrupt({ by: 'timeout', why: `The run reached its time limit of ${timeoutMs} ms.` });
        this.loopScope.cancel();
      },
      () => undefined,
    );
  }

  /**
   * Races the loop's promise against the interruptions: its ending settles `first` itself. One
   * promise, where mapping the ending, passing it on and racing it made four (each a stack trace
   * the SDK takes).
   */
  watch(loop: Promise<RunOutcome>): void {
    void loop.then(
      (outcome) => this.loopSettled({ outcome }),
      (error: unknown) => this.loopSettled({ error }),
    );
  }

  private loopSettled(ended: Settled): void {
    this.loopEnded = ended;
    this.settleFirst(ended);
    this.settleLate?.(ended);
  }

  /**
   * An interruption came first: in-flight work has `settleMs()` to acknowledge and let the loop
   * end by itself, which still counts; past that the run ends with `ending(interruption)`,
   * without it.
   */
  async settleAfter(
    first: Interruption,
    settleMs: () => number,
    ending: (interruption: Interruption) => RunOutcome,
  ): Promise<Settled> {
    // One microtask later, where the recorded histories have the settle window's timer (after a child's cancel request).
    await undefined;
    const late = await CancellationScope.nonCancellable(() => {
      const loopEnds = new Promise<Settled>((resolve) => {
        if (this.loopEnded) resolve(this.loopEnded);
        else this.settleLate = resolve;
      });
      return Promise.race([loopEnds, sleep(settleMs()).then(() => undefined)]);
    });
    return late && 'outcome' in late ? late : { outcome: ending(first) };
  }
}
