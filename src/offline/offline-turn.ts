import type { ModelTool } from '../domain';
import { deriveArguments } from './derive-arguments';
import { ANSWER_TASK } from './offline-plan';
import { clip, describeCall, describeOutcome, OFFLINE_MARK, observedSummary } from './offline-summary';
import type { RequestView, SeenCall } from './read-request';
import { escapeRegExp } from './task-text';
import { looksReadOnly, relevantTools } from './tool-relevance';
import { branchMove } from './branch-move';
import type { Move } from './move';

/** A task that asks for a person's word first; with the question tool offered, the model asks before anything else. */
export const ASKS_FIRST = /\b(ask (me|us|the user|a person|someone|the person)|check with me|confirm with me)\b/i;

interface PlanLine {
  id: string;
  status: string;
  description: string;
}

/**
 * The offline model's next move in the ReAct loop (native tool calling). The rules, in order:
 * 1. a task that asks for a person's word ("ask me…") gets one question first, or, when questions
 *    are not allowed, gives up saying so (guessing instead would be a made-up answer);
 * 2. offered the branching tool before any call, with two or more relevant tools: one branch per
 *    tool (each a run that keeps to it); once the branches come back, finish with the chosen
 *    answer (branch-move.ts);
 * 3. with a plan, the task in progress is worked like a whole run (rules 4–6), then reported with
 *    the update tool (completed, or failed with the reason); the answer task needs no tool; when
 *    no task is left, the run finishes, or gives up if a task failed or is blocked;
 * 4. the relevant tools (tool-relevance.ts) not called yet are called: every read-only-looking one
 *    at once, in parallel, or else the next writer alone;
 * 5. no relevant tool: one question when allowed (its answer counts as part of the task), else give up;
 * 6. all called: finish with the observed results quoted, or give up when every call failed.
 */
export function nextMove(view: RequestView): Move {
  const asked = view.calls.some((c) => c.name === view.control.question);
  if (ASKS_FIRST.test(view.task) && !asked) {
    if (!view.control.question) {
      return giveUp(
        view,
        `${OFFLINE_MARK} The task asks me to ask a person first, but this run does not allow questions (start it with allowQuestions: true, or \`run --allow-questions\`).`,
      );
    }
    return ask(
      view.control.question,
      `Before I start on "${clip(view.task, 300)}": what should I know or use? The tools I can call: ${toolNames(view.tools)}.`,
    );
  }
  const plan = view.control.update ? latestPlan(view.notes) : undefined;
  const branched = plan ? undefined : branchMove(view, relevantTools(context(view, view.task), view.tools));
  if (branched) return branched.kind === 'answer' ? finish(view, branched.answer) : branched.move;
  if (plan) return planMove(view, plan, view.control.update!);
  // A branch's run keeps to the tool its approach names.
  const named = view.tools.filter((t) => t.name === view.approach);
  const work = progress(
    view,
    view.task,
    named.length > 0 ? named : relevantTools(context(view, view.task), view.tools),
    ownCalls(view, view.calls),
  );
  switch (work.kind) {
    case 'act':
      return work.move;
    case 'observed':
      return finish(view, observedSummary(view.task, work.calls));
    case 'failed':
      return giveUp(
        view,
        `${OFFLINE_MARK} Every tool call failed, so I cannot answer. ${work.calls.map(describeOutcome).join('; ')}`,
      );
    case 'no_tool':
      if (view.control.question && !asked) {
        return ask(
          view.control.question,
          `No tool I have fits "${clip(view.task, 300)}". My tools: ${toolNames(view.tools)}. Which should I use, or what should I look up?`,
        );
      }
      return giveUp(view, noToolReason(view));
  }
}

type Progress = { kind: 'act'; move: Move } | { kind: 'observed' | 'failed'; calls: SeenCall[] } | { kind: 'no_tool' };

/** Where work on `focus` stands, given the tools that fit it and the calls made for it so far. */
function progress(view: RequestView, focus: string, tools: readonly ModelTool[], scope: readonly SeenCall[]): Progress {
  if (tools.length === 0) return { kind: 'no_tool' };
  const called = new Set(scope.map((c) => c.name));
  const pending = tools.filter((t) => !called.has(t.name));
  if (pending.length > 0) {
    // Read-only-looking tools come first and go together; a writer goes alone, after them.
    const batch = looksReadOnly(pending[0]!) ? pending.filter(looksReadOnly) : [pending[0]!];
    const source = { text: context(view, focus), observed: scope.map(describeOutcome).join('\n') };
    const calls = batch.map((t) => ({ name: t.name, input: deriveArguments(t.inputSchema, source) }));
    const why = `${OFFLINE_MARK} ${calls.length > 1 ? `Calling ${calls.length} tools at once` : 'Calling'}: ${calls.map(describeCall).join(', ')} (chosen for the words ${calls.length > 1 ? 'they share' : 'it shares'} with the task).`;
    return { kind: 'act', move: { text: why, calls } };
  }
  const mine = scope.filter((c) => tools.some((t) => t.name === c.name));
  return { kind: mine.every((c) => c.result?.isError) ? 'failed' : 'observed', calls: mine };
}

function planMove(view: RequestView, plan: readonly PlanLine[], update: string): Move {
  // With several tasks ready and none started, the offline model makes no choice: it works the
  // first ready one, which the run then starts by plan order.
  const current = plan.find((t) => t.status === 'in_progress') ?? firstReady(plan);
  if (!current) {
    const stuck = plan.filter((t) => t.status === 'failed' || t.status === 'blocked');
    if (stuck.length > 0) {
      return giveUp(
        view,
        `${OFFLINE_MARK} The plan could not be completed: ${stuck.map((t) => `${t.id} is ${t.status} (${clip(t.description, 160)})`).join('; ')}.`,
      );
    }
    const calls = ownCalls(view, view.calls);
    // The plan's own state is in the chain; the answer quotes only what the tools returned.
    return finish(view, observedSummary(view.task, calls));
  }
  const report = (status: 'completed' | 'failed', note: string): Move => ({
    text: `${OFFLINE_MARK} Task ${current.id} is ${status}.`,
    calls: [{ name: update, input: { task_id: current.id, status, note: clip(note, 1_000) } }],
  });
  if (current.description.startsWith(ANSWER_TASK))
    return report('completed', `Answered from ${ownCalls(view, view.calls).length} tool results.`);
  const lastUpdate = view.calls.map((c) => c.name).lastIndexOf(update);
  const scope = ownCalls(view, view.calls.slice(lastUpdate + 1));
  const named = view.tools.filter((t) => new RegExp(`(^|\\s)${escapeRegExp(t.name)}(\\s|$)`).test(current.description));
  const tools = named.length > 0 ? named : relevantTools(context(view, current.description), view.tools);
  const work = progress(view, current.description, tools, scope);
  switch (work.kind) {
    case 'act':
      return work.move;
    case 'observed':
      return report('completed', work.calls.map(describeOutcome).join('; '));
    case 'failed':
      return report('failed', work.calls.map(describeOutcome).join('; '));
    case 'no_tool':
      return report('failed', `No tool fits this task. ${noToolReason(view)}`);
  }
}

/** The first pending task whose dependencies (its line's "(after …)") are all completed, in plan order. */
function firstReady(plan: readonly PlanLine[]): PlanLine | undefined {
  const done = new Set(plan.filter((t) => t.status === 'completed').map((t) => t.id));
  return plan.find((t) => {
    if (t.status !== 'pending') return false;
    const after = / \(after ([^)]*)\)/.exec(t.description)?.[1];
    return !after || after.split(', ').every((id) => done.has(id));
  });
}

/** The last plan the run showed (a plan note: the first one, or the one after the last update). */
function latestPlan(notes: readonly string[]): PlanLine[] | undefined {
  // A reflection quotes the plan in its own words; only the loop's notes and update results count.
  const note = [...notes].reverse().find((n) => /^Plan \(version \d+|\n\nPlan \(version \d+/.test(n));
  if (!note) return undefined;
  return [...note.matchAll(/^- (\S+) \[(\w+)\] (.*)$/gm)].map((m) => ({
    id: m[1]!,
    status: m[2]!,
    description: m[3]!,
  }));
}

/** The task, with any answers people gave first (an answer names what the task left open). */
const context = (view: RequestView, focus: string): string => [...view.answers, focus].join('\n');

/** Calls of the run's own tools, not of the injected ones. */
const ownCalls = (view: RequestView, calls: readonly SeenCall[]): SeenCall[] =>
  calls.filter((c) => view.tools.some((t) => t.name === c.name));

const toolNames = (tools: readonly ModelTool[]): string =>
  tools.length > 0 ? tools.map((t) => t.name).join(', ') : 'none';

function noToolReason(view: RequestView): string {
  return (
    `${OFFLINE_MARK} No tool fits "${clip(view.task, 200)}". Tools offered: ${toolNames(view.tools)}. ` +
    'The offline model calls a tool only when the task shares a word with its name or description: name the tool or its subject in the task, or set ANTHROPIC_API_KEY to use Claude.'
  );
}

const ask = (tool: string, question: string): Move => ({
  text: `${OFFLINE_MARK} I need a person's answer first.`,
  calls: [{ name: tool, input: { question } }],
});

function finish(view: RequestView, result: string): Move {
  if (!view.control.finish) return { text: result, calls: [] };
  return {
    text: `${OFFLINE_MARK} Done; answering with what the tools returned.`,
    calls: [{ name: view.control.finish, input: { result } }],
  };
}

function giveUp(view: RequestView, reason: string): Move {
  if (!view.control.giveUp) return { text: reason, calls: [] };
  return { text: `${OFFLINE_MARK} I cannot do this task.`, calls: [{ name: view.control.giveUp, input: { reason } }] };
}
