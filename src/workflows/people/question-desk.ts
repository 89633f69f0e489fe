import { condition } from '@temporalio/workflow';
import { AnswerRequest } from '../../domain';
import { cutText, readMessage } from '../core/read-message';

/** Longest answer accepted; the `answer` update's validator refuses longer ones (the model reads it whole). */
export const MAX_ANSWER_CHARS = 8_000;
/** Longest `by` (a person's id) accepted on an answer. */
export const MAX_PERSON_ID_CHARS = 200;

export interface OpenQuestion {
  callId: string;
  question: string;
  askedAt: string;
  expiresAt: string;
}

/** The one question the agent may have open for a person, and its answer. Deterministic. */
export class QuestionDesk {
  private open: OpenQuestion | undefined;
  private answer: AnswerRequest | undefined;

  get current(): OpenQuestion | undefined {
    return this.open;
  }

  /** The `answer` update's validator: throws, with the reason, for any payload it does not accept. */
  check(raw: unknown): void {
    const request = readMessage(AnswerRequest, raw);
    if (!request) throw new Error('Malformed answer: expected { text: string, by: string, callId?: string }.');
    if (request.text.length > MAX_ANSWER_CHARS)
      throw new Error(`An answer has at most ${MAX_ANSWER_CHARS} characters; this one has ${request.text.length}.`);
    if (request.by.length > MAX_PERSON_ID_CHARS)
      throw new Error(`A person's id has at most ${MAX_PERSON_ID_CHARS} characters.`);
    if (!this.open || this.answer) throw new Error('This run has no open question.');
    if (request.callId && request.callId !== this.open.callId) {
      throw new Error(`The open question is "${this.open.callId}", not "${request.callId}".`);
    }
    if (!request.text.trim()) throw new Error('An answer needs some text.');
  }

  /**
   * The update's handler, total: on replay it also sees answers accepted before a limit existed,
   * so it cuts (with a marker) instead of trusting the validator; one it cannot read is ignored.
   */
  receive(raw: unknown): boolean {
    const request = readMessage(AnswerRequest, raw);
    if (!request || !this.open || this.answer) return false;
    this.answer = {
      ...request,
      text: cutText(request.text, MAX_ANSWER_CHARS),
      by: cutText(request.by, MAX_PERSON_ID_CHARS),
    };
    return true;
  }

  /** Waits for an answer at no cost; undefined when nobody answered in time. */
  async ask(question: OpenQuestion, timeoutMs: number): Promise<AnswerRequest | undefined> {
    this.open = question;
    this.answer = undefined;
    await condition(() => this.answer !== undefined, timeoutMs);
    const answer = this.answer;
    this.open = undefined;
    this.answer = undefined;
    return answer;
  }
}
