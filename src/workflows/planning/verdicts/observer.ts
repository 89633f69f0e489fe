import { redactSecretsInText } from '../../../domain/secrets/secret-patterns';
import { MAX_LEARNING_CHARS, MAX_RUN_LEARNINGS, type Learning, type ObserverVerdict, type Plan } from '../../../domain';
import { ModelCallFailed } from '../../core/loop-signals';
import type { RunContext } from '../../core/state/run-context';
import { askForVerdict } from './verdict-call';
import { observerPrompt, observerSystem, type ObservedCall } from './verdict-prompts';
import { readObserverReply } from './verdict-reader';

/** What one observer call gave: the step's text, its verdict when the reply was readable, and what the model hears. */
export interface Observed {
  thought: string;
  verdict?: ObserverVerdict;
  learning?: Learning;
  /** Appended to the conversation for the model's next turn; absent when there is nothing to say. */
  forModel?: string;
}

/**
 * Seed 003's observer (`planning.observe`): after an action, one model call without tools judges
 * it (did it succeed, what was learnt, which tasks it made possible). An unreadable reply or a
 * model that failed for good is said in the step and the run goes on; BudgetExhausted and
 * cancellation propagate like any model call's.
 */
export async function observeAction(
  ctx: RunContext,
  plan: Plan | undefined,
  calls: readonly ObservedCall[],
): Promise<Observed> {
  const taskId = plan?.tasks.find((t) => t.status === 'in_progress')?.id;
  let text: string;
  try {
    text = await askForVerdict(
      ctx,
      observerSystem(),
      observerPrompt(ctx.input.task, plan, calls),
      `observer after iteration ${ctx.state.iteration}`,
    );
  } catch (err) {
    if (!(err instanceof ModelCallFailed)) throw err;
    return { thought: `Observer unavailable (${err.message}); the run goes on without its reading.` };
  }
  const read = readObserverReply(text);
  if (!read.ok) return { thought: `Observer reply unreadable (${read.problem}); the run goes on without its reading.` };
  const known = new Set(plan?.tasks.map((t) => t.id) ?? []);
  const learned = clean(read.value.learned, MAX_LEARNING_CHARS);
  const adjustment = clean(read.value.adjustment, MAX_LEARNING_CHARS);
  const verdict: ObserverVerdict = {
    ...(taskId !== undefined ? { taskId } : {}),
    success: read.value.success,
    ...(learned ? { learned } : {}),
    // Only ids of this plan's tasks: the observer's words are advice, never a change of state.
    unblocked: read.value.unblocked.filter((id) => known.has(id)),
    ...(adjustment ? { adjustment } : {}),
  };
  const said = [
    `The action ${verdict.success ? 'succeeded' : 'did not succeed'}${taskId ? ` (task ${taskId})` : ''}.`,
    ...(learned ? [`Learnt: ${learned}`] : []),
    ...(verdict.unblocked.length ? [`Made possible: ${verdict.unblocked.join(', ')}.`] : []),
    ...(adjustment ? [`Suggested change: ${adjustment}`] : []),
  ].join(' ');
  return {
    thought: `Observer: ${said}`,
    verdict,
    ...(learned ? { learning: { text: learned, ...(taskId !== undefined ? { taskId } : {}) } } : {}),
    forModel: `The observer on your last action: ${said}`,
  };
}

/** Learnings with new ones added: each within MAX_LEARNING_CHARS, the oldest dropped past MAX_RUN_LEARNINGS. */
export function withLearnings(existing: readonly Learning[] | undefined, added: readonly Learning[]): Learning[] {
  const all = [...(existing ?? []), ...added]
    .map((l) => ({ ...l, text: clean(l.text, MAX_LEARNING_CHARS) }))
    .filter((l) => l.text.length > 0);
  return all.slice(Math.max(0, all.length - MAX_RUN_LEARNINGS));
}

/** Trimmed, secrets redacted, cut to `max` characters. */
function clean(text: string, max: number): string {
  const redacted = redactSecretsInText(text.trim());
  return redacted.length <= max ? redacted : `${redacted.slice(0, max - 1)}…`;
}
