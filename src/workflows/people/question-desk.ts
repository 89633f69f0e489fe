import { condition } from '@temporalio/workflow';
import type { AnswerRequest } from '../../shared';

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

  /** The `answer` update's validator. */
  check(request: AnswerRequest): void {
    if (!this.open || this.answer) throw new Error('This run has no open question.');
    if (request.callId && request.callId !== this.open.callId) {
      throw new Error(`The open question is "${this.open.callId}", not "${request.callId}".`);
    }
    if (!request.text.trim()) throw new Error('An answer needs some text.');
  }

  receive(request: AnswerRequest): void {
    this.answer = request;
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
