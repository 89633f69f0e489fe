import type { Plan, PlanningSettings, ToolUseBlock } from '../../domain';
import type { Observation } from '../core/model-exchange';
import { cutText } from '../core/read-message';
import { recordControlCall } from '../core/chain/record-calls';
import type { RunContext } from '../core/state/run-context';
import {
  markBlocked,
  refuseFallback,
  retryAfterAnswer,
  retryWithTool,
  splitTask,
  type FallbackResult,
} from './plans/plan-fallbacks';
import { planNote } from './plans/plan-prompts';
import { applyTaskUpdate, type TaskUpdate } from './plans/plan-tracker';
import { startNext } from './plans/task-choice';

/** Puts a question to a person and waits for the answer (undefined: nobody answered in time). */
export type AskUser = (callId: string, question: string) => Promise<{ text: string; by: string } | undefined>;

/** What a fallback may use of the run: its tools, and how to ask a person (absent: `ask_user` is refused). */
export interface FallbackRun {
  toolNames: readonly string[];
  askUser: AskUser | undefined;
}

/** A `"failed"` update naming a fallback (plan-fallbacks.ts): applied as a visible `fallback` step, or refused as an observation. */
export async function applyFallback(
  ctx: RunContext,
  settings: PlanningSettings,
  run: FallbackRun,
  call: ToolUseBlock,
  plan: Plan,
  update: TaskUpdate,
): Promise<Observation> {
  const { chain, input } = ctx;
  const refusal =
    refuseFallback(plan, update, {
      allowed: settings.fallbacks,
      toolNames: run.toolNames,
      allowQuestions: input.allowQuestions && run.askUser !== undefined,
    }) ?? failureRefused(plan, update);
  if (refusal) {
    recordControlCall(chain, input, call, { success: false, error: refusal });
    return { callId: call.id, content: `${refusal}\n\n${planNote(plan, settings)}`, isError: true };
  }
  const reason = cutText(update.note?.trim() ?? '', 1_000);
  let result: FallbackResult;
  let heard = '';
  switch (update.fallback) {
    case 'split':
      result = splitTask(plan, update.task_id, update.subtasks ?? [], reason);
      break;
    case 'alternative_tool':
      result = retryWithTool(plan, update.task_id, update.tool ?? '', reason);
      break;
    case 'mark_blocked':
      result = markBlocked(plan, update.task_id, reason);
      break;
    case 'ask_user': {
      const asked = await askAboutTask(run.askUser!, call, plan, update.task_id, reason);
      heard = asked.heard;
      result = asked.result;
      break;
    }
    default:
      result = { ok: false, message: 'No fallback named.' };
  }
  if (!result.ok) {
    recordControlCall(chain, input, call, { success: false, error: result.message });
    return { callId: call.id, content: `${result.message}\n\n${planNote(plan, settings)}`, isError: true };
  }
  // Several tasks ready (a split's subtasks): the model chooses among them in its next turn.
  const { plan: next, choose } = startNext(result.plan);
  recordControlCall(chain, input, call, { success: true, result: result.message });
  chain.setPlan(next);
  chain.note(
    'fallback',
    `Fallback for task ${update.task_id}: ${result.message}${heard ? ` ${heard}` : ''}${reason ? ` (reported: ${cutText(reason, 300)})` : ''}`,
    { level: input.visibility },
    next,
    { fallback: result.decision },
  );
  if (choose) chain.note('task_choice', choose.reason, { level: input.visibility }, undefined, { taskChoice: choose });
  return {
    callId: call.id,
    content: `${result.message}${heard ? `\n${heard}` : ''}\n\n${planNote(next, settings)}`,
    isError: false,
  };
}

/** `ask_user`: the question desk's one question, the run waiting at no cost; nobody answering leaves the task failed. */
async function askAboutTask(
  askUser: AskUser,
  call: ToolUseBlock,
  plan: Plan,
  taskId: string,
  reason: string,
): Promise<{ result: FallbackResult; heard: string }> {
  const task = plan.tasks.find((t) => t.id === taskId);
  const question = cutText(
    `Task "${taskId}" (${task?.description ?? ''}) failed${reason ? `: ${reason}` : ''}. How should the agent go on?`,
    2_000,
  );
  const answer = await askUser(call.id, question);
  if (!answer) {
    const failed = applyTaskUpdate(plan, { task_id: taskId, status: 'failed', ...(reason ? { note: reason } : {}) });
    const why = 'Nobody answered the question in time; the task is marked failed.';
    return {
      result: failed.ok
        ? {
            ok: true,
            plan: failed.plan,
            decision: { taskId, kind: 'ask_user', reason: cutText(why, 1_000) },
            message: why,
          }
        : failed,
      heard: '',
    };
  }
  return {
    result: retryAfterAnswer(plan, taskId, cutText(reason, 1_000)),
    heard: `Answer from ${answer.by}: ${answer.text}`,
  };
}

/** A failed update the tracker would refuse (unknown, completed or blocked task): its message. */
function failureRefused(plan: Plan, update: TaskUpdate): string | undefined {
  const applied = applyTaskUpdate(plan, { task_id: update.task_id, status: 'failed' });
  return applied.ok ? undefined : applied.message;
}
