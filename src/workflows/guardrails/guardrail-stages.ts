/**
 * The three places a run's guardrails check (docs/guardrails.md), each one check point: the task
 * before the first model call, a turn's tool results before the model reads them, the answer
 * before it is the run's. Deterministic, sandbox side.
 */
import type { GuardrailOutcome } from '../../domain';
import type { Observation } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import type { QuestionDesk } from '../people/question-desk';
import { blockedWhy, checkPoint } from './check-point';

/** What became of a text at a check point: it goes on (maybe redacted), or it was blocked and why. */
export type Checked = { kind: 'go_on'; text: string; redacted: boolean } | { kind: 'blocked'; why: string };

function checked(original: string, outcome: GuardrailOutcome | undefined): Checked {
  if (!outcome || outcome.verdict === 'pass') return { kind: 'go_on', text: original, redacted: false };
  if (outcome.verdict === 'block') return { kind: 'blocked', why: blockedWhy(outcome) };
  // An ask was turned into pass or block by checkPoint; a redaction carries its text.
  return outcome.text !== undefined
    ? { kind: 'go_on', text: outcome.text, redacted: true }
    : { kind: 'go_on', text: original, redacted: false };
}

/** The task, once, before the run's first model call: a redaction is what the model reads from then on. */
export async function checkTask(ctx: RunContext, desk: QuestionDesk): Promise<Checked> {
  const task = ctx.input.task;
  const outcomes = await checkPoint(ctx, desk, 'input', [{ id: 'task', text: task }], 'task');
  const result = checked(task, outcomes?.[0]);
  if (result.kind === 'go_on' && result.redacted) ctx.state.replaceTaskText(task, result.text);
  return result;
}

/**
 * A turn's tool results, before the model reads them (one check point for the turn): a blocked
 * one reaches the model as an error saying which guardrail withheld it, a redacted one as redacted.
 * The chain's own tool_result steps keep what the tools returned, for the views to show.
 */
export async function checkToolResults(
  ctx: RunContext,
  desk: QuestionDesk,
  observations: Observation[],
  toolNames: ReadonlyMap<string, string>,
): Promise<Observation[]> {
  const subjects = observations.map((o) => ({
    id: o.callId,
    text: o.content,
    ...(toolNames.has(o.callId) ? { toolName: toolNames.get(o.callId)! } : {}),
  }));
  const outcomes = await checkPoint(ctx, desk, 'tool_result', subjects, 'tool results');
  if (!outcomes) return observations;
  return observations.map((o, i) => {
    const result = checked(o.content, outcomes[i]);
    if (result.kind === 'blocked') return { callId: o.callId, content: `Withheld: ${result.why}.`, isError: true };
    return result.redacted ? { ...o, content: result.text } : o;
  });
}

/** The answer, before it is the run's (and the synthesis's): one check point. */
export async function checkAnswer(ctx: RunContext, desk: QuestionDesk, answer: string): Promise<Checked> {
  const outcomes = await checkPoint(ctx, desk, 'output', [{ id: 'answer', text: answer }], 'answer');
  return checked(answer, outcomes?.[0]);
}
