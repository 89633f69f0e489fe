import type { ConsensusAnswer, LlmConsensus } from '../../../domain';
import type { ToolContext } from '../../define-tool';
import { ToolError } from '../../tool-error';
import { agreementOf, groupAnswers } from './agreement';
import { askOne, type OneCall } from './ask-one';
import { judgeTextGroups } from './consensus-judge';

/** Longest error kept per failed model: the result must stay within the room the workflow gives it. */
const ERROR_CHARS = 300;

/**
 * Asks every model the same prompt at once, inside this one tool activity: they share its abort
 * signal (a cancel stops them all) and its heartbeats. A model that fails is listed with its
 * error as long as one answers, and is not retried on its own (the tool's retry would ask, and
 * pay, the others again). When none answers, the call fails as a ToolError, retryable only if one
 * of the failures was (a rerun asks every model again, none of which was paid for). With a `judge`
 * (the tool's `consensusJudge`), free-text answers the rules leave apart are grouped by one more
 * call of it (consensus-judge.ts), in this same activity.
 */
export async function askConsensus(
  calls: readonly OneCall[],
  context: ToolContext,
  judge?: Omit<OneCall, 'args' | 'maxChars'>,
): Promise<LlmConsensus> {
  const settled = await Promise.allSettled(calls.map((call) => askOne(call, context)));
  if (context.signal.aborted) throw context.signal.reason;
  const answers = settled.map((s, i): ConsensusAnswer => {
    const { alias, target } = calls[i]!;
    return s.status === 'fulfilled'
      ? { ...s.value.answer, durationMs: s.value.durationMs }
      : { model: target.model, alias, error: errorText(s.reason).slice(0, ERROR_CHARS) };
  });
  // Compared whole, reported as cut.
  const asked = settled.map((s, i) =>
    s.status === 'fulfilled'
      ? { alias: calls[i]!.alias, text: s.value.text, shown: s.value.answer.answer }
      : { alias: calls[i]!.alias },
  );
  const failures = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  if (failures.length === calls.length) {
    const each = answers.map((a) => `${a.alias}: ${'error' in a ? a.error : ''}`).join('; ');
    throw new ToolError(`Every model failed. ${each}`, { retryable: failures.some(retryable) });
  }
  const groups = groupAnswers(asked);
  const judged = judge ? await judgeTextGroups(calls[0]!.args.prompt, groups, judge, context) : undefined;
  if (!judged) return { mode: 'consensus', answers, ...agreementOf(asked, groups) };
  return {
    mode: 'consensus',
    answers,
    ...agreementOf(asked, judged.groups),
    judge: judged.judge,
    ...(judged.problem !== undefined ? { judgeProblem: judged.problem } : {}),
  };
}

/** The failure's type and message, as the workflow would show it. */
function errorText(err: unknown): string {
  if (ToolError.is(err)) return err.message;
  const type = (err as { type?: unknown } | null)?.type;
  const message = err instanceof Error ? err.message : String(err);
  return typeof type === 'string' ? `${type}: ${message}` : message;
}

/** As the tool activity decides: an ApplicationFailure by its own flag, a ToolError by its own, anything else retried. */
function retryable(err: unknown): boolean {
  if (ToolError.is(err)) return err.retryable;
  const nonRetryable = (err as { nonRetryable?: unknown } | null)?.nonRetryable;
  return nonRetryable !== true;
}
