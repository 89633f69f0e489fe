import { condition } from '@temporalio/workflow';
import type { StallDecision } from '../messages';

/** The "continue?" question of a stalled run (`onStall: 'ask'`), answered by the `resolveStall` update. Deterministic. */
export class StallQuestion {
  private question: string | undefined;
  private decision: StallDecision | undefined;

  get current(): string | undefined {
    return this.question;
  }

  /** The update's validator: refused unless a question is open and still unanswered. */
  check(): void {
    if (this.question === undefined || this.decision !== undefined) throw new Error('This run is not waiting for a "continue?" decision.');
  }

  receive(decision: StallDecision): void {
    this.decision = decision;
  }

  /** Opens the question, lets `opened` publish it, and waits at no cost; undefined when nobody answered in time. */
  async ask(question: string, timeoutMs: number, opened: () => void): Promise<StallDecision | undefined> {
    this.question = question;
    this.decision = undefined;
    opened();
    const answered = await condition(() => this.decision !== undefined, timeoutMs);
    this.question = undefined;
    return answered ? this.decision : undefined;
  }
}
