import { condition } from '@temporalio/workflow';
import { BudgetRaise, MAX_RAISE_TEXT_CHARS, raiseProblem, type BudgetPause } from '../../domain/run/budget-pause';
import { cutText, readMessage } from '../core/read-message';

/** A raise as the run kept it, with whether a verified signature vouches for the raiser's roles. */
export type KeptRaise = BudgetRaise & { rolesVerified: boolean };

/**
 * A paused budget (`onBudget: 'ask'`), answered by the `raiseBudget` update. Deterministic: the
 * pause and its answer live in workflow state, so a replay on another worker rebuilds exactly
 * the same pause and applies the same raise once.
 */
export class BudgetDesk {
  private pause: BudgetPause | undefined;
  private raise: KeptRaise | undefined;

  get current(): BudgetPause | undefined {
    return this.pause;
  }

  /**
   * The update's validator: refused (nothing reaches history) unless the payload parses, the
   * run is paused and not yet answered, and the raise can answer it (budget-pause.ts raiseProblem).
   */
  check(raw: unknown, rolesVerified: boolean): void {
    const raise = readMessage(BudgetRaise, raw);
    if (!raise) {
      throw new Error(
        'Malformed raise: expected { tokens?: number, costUsd?: number, iterations?: number, stop?: boolean, by: { id: string, roles?: string[] }, note?: string, pauseId?: string }.',
      );
    }
    if (raise.by.id.length > MAX_RAISE_TEXT_CHARS || (raise.note?.length ?? 0) > MAX_RAISE_TEXT_CHARS)
      throw new Error(`A raise's by.id and note have at most ${MAX_RAISE_TEXT_CHARS} characters each.`);
    if (this.pause === undefined || this.raise !== undefined)
      throw new Error('This run is not paused at a budget; nothing to raise.');
    const problem = raiseProblem(raise, this.pause, rolesVerified);
    if (problem !== undefined) throw new Error(problem);
  }

  /**
   * The update's handler, total (on replay the validator does not run): the raise as kept, or
   * undefined when it cannot be read or does not answer the pause, which then still waits.
   */
  receive(raw: unknown, rolesVerified: boolean): KeptRaise | undefined {
    const raise = readMessage(BudgetRaise, raw);
    if (!raise || this.pause === undefined || this.raise !== undefined) return undefined;
    if (raiseProblem(raise, this.pause, rolesVerified) !== undefined) return undefined;
    const { signature: _signature, ...kept } = raise;
    this.raise = {
      ...kept,
      rolesVerified,
      by: { ...raise.by, id: cutText(raise.by.id, MAX_RAISE_TEXT_CHARS) },
      ...(raise.note !== undefined ? { note: cutText(raise.note, MAX_RAISE_TEXT_CHARS) } : {}),
    };
    return this.raise;
  }

  /** Opens the pause, lets `opened` publish it, and waits (one timer); undefined when nobody answered in time. */
  async ask(pause: BudgetPause, timeoutMs: number, opened: () => void): Promise<KeptRaise | undefined> {
    this.pause = pause;
    this.raise = undefined;
    opened();
    try {
      await condition(() => this.raise !== undefined, timeoutMs);
      // A raise that landed in the same activation as the timer wins, as an approval does.
      return this.raise;
    } finally {
      // Also when the wait is cancelled (the run's cancel or timeout): the status stops showing the pause.
      this.pause = undefined;
    }
  }
}
