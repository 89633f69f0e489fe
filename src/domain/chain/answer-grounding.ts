import { z } from 'zod';
import type { TerminationReason } from '../run/termination';

/**
 * What stands behind an answer (docs/concepts.md, "Grounded answers"): `grounded`, at least one
 * tool's successful observation (their step ids are the synthesis's `sources`); `unsupported`, a
 * `success` with none (the model's own knowledge); `ungrounded`, any other ending with none.
 * Judged from the chain's records only, never from the answer's text.
 */
export const AnswerGrounding = z.enum(['grounded', 'unsupported', 'ungrounded']);
export type AnswerGrounding = z.infer<typeof AnswerGrounding>;

/**
 * How every view names an answer: `final` (grounded, the run succeeded), `partial` (grounded, but
 * the run ended otherwise), `unsupported` and `ungrounded`. Only `final` is titled "Final answer".
 */
export type AnswerKind = 'final' | 'partial' | 'unsupported' | 'ungrounded';

export interface AnswerLabel {
  kind: AnswerKind;
  /** "Final answer", "Partial answer (max_iterations)", "Answer, no tool result behind it", "Ungrounded summary (stalled)". */
  title: string;
}

/**
 * The label of a judged answer, or undefined for one recorded before answers were judged (no
 * `grounding`): each view then shows it as it always did. Without a reason, `grounded` is final.
 */
export function answerLabel(judged: {
  grounding?: AnswerGrounding;
  terminationReason?: TerminationReason;
}): AnswerLabel | undefined {
  const { grounding, terminationReason: reason } = judged;
  switch (grounding) {
    case undefined:
      return undefined;
    case 'grounded':
      return reason === undefined || reason === 'success'
        ? { kind: 'final', title: 'Final answer' }
        : { kind: 'partial', title: `Partial answer (${reason})` };
    case 'unsupported':
      return { kind: 'unsupported', title: 'Answer, no tool result behind it' };
    case 'ungrounded':
      return { kind: 'ungrounded', title: `Ungrounded summary (${reason ?? 'not a success'})` };
  }
}

/** "confidence 80%", or undefined when no confidence was given. */
export function confidenceText(confidence: number | undefined): string | undefined {
  return confidence === undefined ? undefined : `confidence ${Math.round(confidence * 100)}%`;
}
