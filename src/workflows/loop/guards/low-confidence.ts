/**
 * With `confirmBelowConfidence`, an answer below it (or without one) waits for a person: they
 * accept it, or send the agent back to work with a note. Nobody answering in time accepts it.
 * Deterministic, sandbox side.
 */
import { cutText } from '../../core/read-message';
import type { RunContext } from '../../core/state/run-context';
import type { StallQuestion } from '../../people/stall-question';

/** The instruction to keep working when a person sends the answer back; undefined when it stands. */
export async function sentBackBelowConfidence(
  ctx: RunContext,
  question: StallQuestion,
  answer: { answer: string; confidence?: number | undefined },
): Promise<string | undefined> {
  const { chain, input } = ctx;
  const threshold = input.confirmBelowConfidence;
  if (threshold === undefined || (answer.confidence !== undefined && answer.confidence >= threshold)) return undefined;
  const said = answer.confidence === undefined ? 'gave no confidence' : `is ${answer.confidence} confident`;
  chain.setStatus('waiting');
  ctx.progress.publish();
  const decision = await question.ask(
    `The agent ${said} in its answer (below ${threshold}). Continue working instead of accepting it? Answer: ${cutText(answer.answer, 500)}`,
    input.stallQuestionTimeoutMs,
    () => ctx.progress.publish(),
  );
  chain.setStatus('thinking');
  const who = decision?.by ? ` (${decision.by})` : '';
  const note = decision?.note ? `: ${decision.note}` : '';
  if (!decision?.continue) {
    chain.thinking(
      decision === undefined
        ? `Nobody confirmed the low-confidence answer in time; it stands (confidence ${answer.confidence ?? 'not given'}, threshold ${threshold}).`
        : `A person${who} accepted the low-confidence answer${note}.`,
      { level: 'full' },
    );
    return undefined;
  }
  chain.thinking(`A person${who} sent the answer back${note}.`, { level: 'full' });
  return `A person did not accept this answer yet and asks you to keep working${note}.`;
}
