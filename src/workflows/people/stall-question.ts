import { condition } from '@temporalio/workflow';
import { cutText, readMessage } from '../core/read-message';
import { StallDecision } from '../messages';

/** Longest `by` and `note` of a stall decision kept; longer ones are refused by the validator, cut by the handler. */
export const MAX_STALL_TEXT_CHARS = 2_000;

/** The "continue?" question of a stalled run (`onStall: 'ask'`), answered by the `resolveStall` update. Deterministic. */
export class StallQuestion {
  private question: string | undefined;
  private decision: StallDecision | undefined;

  get current(): string | undefined {
    return this.question;
  }

  /** The update's validator: refused unless the payload parses and a question is open and still unanswered. */
  check(raw: unknown): void {
    const decision = readMessage(StallDecision, raw);
    if (!decision) throw new Error('Malformed decision: expected { continue: boolean, by?: string, note?: string }.');
    if ((decision.by?.length ?? 0) > MAX_STALL_TEXT_CHARS || (decision.note?.length ?? 0) > MAX_STALL_TEXT_CHARS) {
      throw new Error(`A decision's by and note have at most ${MAX_STALL_TEXT_CHARS} characters each.`);
    }
    if (this.question === undefined || this.decision !== undefined)
      throw new Error('This run is not waiting for a "continue?" decision.');
  }

  /** The update's handler, total (on replay the validator does not run): the decision read, or undefined when it cannot be read. */
  receive(raw: unknown): StallDecision | undefined {
    const decision = readMessage(StallDecision, raw);
    if (!decision) return undefined;
    this.decision = {
      continue: decision.continue,
      ...(decision.by !== undefined ? { by: cutText(decision.by, MAX_STALL_TEXT_CHARS) } : {}),
      ...(decision.note !== undefined ? { note: cutText(decision.note, MAX_STALL_TEXT_CHARS) } : {}),
    };
    return this.decision;
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
