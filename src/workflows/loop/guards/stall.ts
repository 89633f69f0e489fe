/**
 * The stall guard: the same (or similar, `similarCallThreshold`) tool calls again and again, and replies that cannot be read, are
 * counted (core/stall-detector.ts); the model is warned once through its observation, then the run
 * stops as `stalled` unless a person lets it go on (`onStall: 'ask'`). Deterministic, sandbox side.
 */
import type { ToolUseBlock } from '../../../domain';
import { alikeText, turnFingerprint } from '../../../domain/text/similarity';
import type { RunContext } from '../../core/state/run-context';
import { similarCallKey } from '../../core/stable-hash';
import { afterFormatError, afterToolCalls, freshStallState, type StallVerdict } from '../../core/state/stall-detector';
import type { StallQuestion } from '../../people/stall-question';

/** A turn's calls judged against the turns before: the verdict, the warning the model reads, and what a person is told on a stall. */
export interface RepeatJudgement {
  verdict: StallVerdict;
  warning: string;
  what: string;
}

/** Counts the turn's calls toward a stall (the same or similar calls in a row, or a cycle through a few turns). */
export function judgeRepeats(ctx: RunContext, calls: readonly ToolUseBlock[]): RepeatJudgement {
  const { input, state } = ctx;
  const turnKey = calls.map((c) => similarCallKey(c.name, c.input)).join('|');
  const threshold = input.similarCallThreshold;
  const likeness = threshold < 1 ? { shape: turnFingerprint(calls), threshold } : undefined;
  const judged = afterToolCalls(state.stall, turnKey, input.stallThreshold, input.stallWindow, likeness);
  state.setStall(judged.state);
  const { verdict, period } = judged;
  if (judged.kind === 'cycle') {
    // Turns alike enough count as the same turn here, as they do for repeats.
    return {
      verdict,
      what: `it went round the same ${period} turns of calls twice`,
      warning:
        `Not run: you have gone round the same ${period} turns of calls twice, ` +
        'and the results will not change. Use the earlier results, try something different, or finish.',
    };
  }
  const names = calls.map((c) => c.name).join(', ');
  const inRow = state.stall.sameCallsInRow;
  if (!likeness || judged.exact)
    return {
      verdict,
      what: `it called ${names} with the same arguments ${inRow} times in a row`,
      warning:
        `Not run: you have made this exact call (${names} with the same arguments) ${inRow} times in a row, ` +
        'and the result will not change. Use the earlier result, try something different, or finish.',
    };
  // Alike, not equal: say so, and how alike, so the model sees why a reworded call did not run.
  const args = `arguments ${alikeText(judged.alike)} to the last call's`;
  return {
    verdict,
    what: `it made a call like this (${names} with ${args}) ${inRow} times in a row`,
    warning:
      `Not run: you have made a call like this (${names} with ${args}) ${inRow} times in a row, ` +
      'and the result will not change. Use the earlier result, try something different, or finish.',
  };
}

/** Counts a reply that could not be used (unreadable, or calls without a usable thought) toward a stall. */
export function judgeFormatError(ctx: RunContext): { verdict: StallVerdict; inRow: number } {
  ctx.state.countFormatError();
  const judged = afterFormatError(ctx.state.stall, ctx.input.stallThreshold);
  ctx.state.setStall(judged.state);
  return { verdict: judged.verdict, inRow: ctx.state.stall.formatErrorsInRow };
}

/** On a stall: with `onStall: 'ask'`, a person may let the run go on (the counters restart). */
export async function mayGoOn(ctx: RunContext, question: StallQuestion, what: string): Promise<boolean> {
  const { chain, input } = ctx;
  chain.thinking(`Stalled: ${what}, after being told once.`, { level: 'full' });
  if (input.onStall !== 'ask') return false;
  chain.setStatus('waiting');
  ctx.progress.publish();
  const decision = await question.ask(`The agent seems stuck: ${what}. Continue?`, input.stallQuestionTimeoutMs, () =>
    ctx.progress.publish(),
  );
  chain.setStatus('thinking');
  const who = decision?.by ? ` (${decision.by})` : '';
  const note = decision?.note ? `: ${decision.note}` : '';
  chain.thinking(
    decision === undefined
      ? 'Nobody answered "continue?" in time; stopping.'
      : `A person${who} chose to ${decision.continue ? 'continue' : 'stop'}${note}.`,
    { level: 'full' },
  );
  if (!decision?.continue) return false;
  ctx.state.setStall(freshStallState());
  return true;
}
