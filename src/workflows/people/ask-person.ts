import { condition } from '@temporalio/workflow';
import type { AnswerRequest, ToolUseBlock } from '../../domain';
import type { Observation } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import type { QuestionDesk } from './question-desk';
import { inWords } from './wait-in-words';

/** The model's question for a person: the run waits (at no cost) for the `answer` update, or `questionTimeoutMs`. */
export async function askPerson(
  ctx: RunContext,
  desk: QuestionDesk,
  call: ToolUseBlock,
  question: string,
): Promise<Observation> {
  const { chain, input } = ctx;
  const visibility = { level: input.visibility };
  chain.toolCall(
    { toolType: 'custom', toolName: call.name, arguments: call.input, correlationId: call.id },
    visibility,
  );
  const { answer, askedAt, expiresAt } = await waitForAnswer(ctx, desk, call.id, question);
  if (!answer) {
    const error = `Nobody answered within ${inWords(input.questionTimeoutMs)}; go on with what you know, or give up.`;
    chain.toolResult(
      {
        correlationId: call.id,
        success: false,
        result: null,
        error,
        durationMs: Date.parse(expiresAt) - Date.parse(askedAt),
      },
      visibility,
    );
    return { callId: call.id, content: error, isError: true };
  }
  const durationMs = Date.now() - Date.parse(askedAt);
  chain.toolResult({ correlationId: call.id, success: true, result: answer.text, durationMs }, visibility, {
    fromPerson: { kind: 'answer', by: answer.by },
  });
  return { callId: call.id, content: `Answer from ${answer.by}: ${answer.text}`, isError: false };
}

/**
 * Puts one question on the desk and waits for its answer at no cost, the run's status `waiting`
 * meanwhile. The desk holds one question at a time: a caller whose turn it is not waits first.
 */
export async function waitForAnswer(
  ctx: RunContext,
  desk: QuestionDesk,
  callId: string,
  question: string,
): Promise<{ answer: AnswerRequest | undefined; askedAt: string; expiresAt: string }> {
  const { chain, input } = ctx;
  while (desk.current) await condition(() => !desk.current);
  const askedAt = new Date().toISOString();
  const expiresAt = new Date(Date.now() + input.questionTimeoutMs).toISOString();
  chain.setStatus('waiting');
  const waiting = desk.ask({ callId, question, askedAt, expiresAt }, input.questionTimeoutMs);
  ctx.progress.publish();
  const answer = await waiting;
  chain.setStatus('tool_calling');
  ctx.progress.publish();
  return { answer, askedAt, expiresAt };
}
