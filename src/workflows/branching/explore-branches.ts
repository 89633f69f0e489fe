import {
  CancelledFailure,
  CancellationScope,
  ChildWorkflowCancellationType,
  ParentClosePolicy,
  isCancellation,
  startChild,
} from '@temporalio/workflow';
import {
  MAX_LOSER_ANSWER_CHARS,
  branchTitle,
  type AgentResult,
  type BranchMark,
  type SubAgentDefinition,
  type SubAgentRun,
  type SubBudget,
  type ToolUseBlock,
} from '../../domain';
import type { ToolCallStep } from '../core/chain/chain-builder';
import { controlToolNames, observationEvidence } from '../core/chain/grounding';
import { toolStepVisibility } from '../core/chain/tool-visibility';
import { failureMessage } from '../core/failure-message';
import type { Observation, ValidCall } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import { chargeUnknown } from '../delegation/charge-unknown';
import { childEnded } from '../delegation/child-ended';
import { childInput } from '../delegation/child-input';
import { delegationPath, maxDepthOf } from '../delegation/delegation-guard';
import { parentLeft } from '../delegation/sub-agent-call';
import type { SubAgentTree } from '../delegation/sub-agent-tree';
import { carveSubBudget, type ParentLeft } from '../delegation/sub-budget';
import { judgeBranches, type BranchChoice } from './branch-judge';
import type { FinishedBranch } from './branch-judge-prompt';
import { branchTask, readBranchCall, type Approach } from './branch-tool';

/** One branch while it runs: its approach, its child run as the tree shows it, and the scope that can stop it. */
interface Branch {
  approach: Approach;
  mark: BranchMark;
  run: SubAgentRun;
  scope: CancellationScope;
}

/** How a branch ended: the child's result, or the error its run ended with. */
type BranchEnd = { branch: Branch; result: AgentResult } | { branch: Branch; error: unknown };

/**
 * An `explore_branches` call (AgentInput.branching, seed 002 #39): each approach runs as a child
 * run of this same agent, all at once, on an equal part of `budgetShare` of what the run has
 * left; then one wins (the judge's pick, or the first to finish, whose rivals are cancelled).
 * The winner's answer comes back as the observation with a line per other branch; every branch
 * stays in the tree (and its own chain) marked with its label, the winner starred, and a
 * `branch_choice` step says which won and why. Branches do not branch.
 */
export async function runBranches(
  ctx: RunContext,
  tree: SubAgentTree,
  call: ToolUseBlock,
  { spec, args }: ValidCall,
  callStep: ToolCallStep,
): Promise<Observation> {
  const { input, chain, workflowId } = ctx;
  const settings = input.branching!;
  const visibility = toolStepVisibility(input, spec, args);
  const refuse = (why: string): Observation => {
    chain.toolResult({ correlationId: call.id, success: false, result: null, error: why, durationMs: 0 }, visibility);
    return { callId: call.id, content: why, isError: true };
  };
  const { approaches, criteria } = readBranchCall(args, settings.maxBranches);
  if (approaches.length < 2)
    return refuse('Not run: give at least two approaches, each with a label and instructions.');
  const path = delegationPath(input, workflowId);
  if (path.length > maxDepthOf(input))
    return refuse(
      `Not run: the branches would be ${path.length} levels deep, and the limit is ${maxDepthOf(input)}. Try the approaches yourself, one at a time.`,
    );
  const carved = carveSubBudget(
    { maxIterations: settings.maxIterationsPerBranch },
    shareOf(parentLeft(ctx), settings.budgetShare),
    approaches.length - 1,
  );
  if ('refused' in carved)
    return refuse(
      `Not run: ${carved.refused}. Try the approaches yourself, one at a time, or finish with what you have.`,
    );
  const { budget } = carved;
  const known = observationEvidence(chain.steps, controlToolNames(input)).map((e) =>
    typeof e.value === 'string' ? e.value : JSON.stringify(e.value),
  );
  const branches: Branch[] = approaches.map((approach, i) => {
    const mark: BranchMark = { group: call.id, index: i + 1, label: approach.label };
    const childId = `${workflowId}/branch-${callStep.stepNumber}-${mark.index}`;
    const run: SubAgentRun = {
      callId: call.id,
      agentName: input.agentName,
      workflowId: childId,
      status: 'running',
      budget,
      branch: mark,
    };
    return { approach, mark, run, scope: new CancellationScope() };
  });
  ctx.state.countToolCall();
  const startedAt = Date.now();
  const start = (b: Branch): Promise<BranchEnd> => {
    ctx.state.reserve(budget);
    tree.put(b.run);
    const task = branchTask(input.task, known, b.approach, b.mark.index, branches.length);
    const childPath = [
      ...path,
      { agentName: `${input.agentName} (branch ${b.mark.index})`, workflowId: b.run.workflowId },
    ];
    return b.scope
      .run(async () => {
        const child = await startChild('agentWorkflow', {
          workflowId: b.run.workflowId,
          args: [childInput(input, branchDefinition(ctx), task, budget, childPath, maxDepthOf(input))],
          cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
          parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
          staticSummary: `${branchTitle(b.mark)} of ${input.agentName} (${workflowId}), step ${callStep.stepNumber}`,
          staticDetails: b.approach.instructions,
        });
        b.run = { ...b.run, runId: child.firstExecutionRunId };
        tree.put(b.run);
        return { branch: b, result: (await child.result()) as AgentResult };
      })
      .catch((error: unknown) => ({ branch: b, error }));
  };
  ctx.progress.publish();
  const ends = await settleBranches(branches.map(start), settings.choose === 'first_success', (winner) => {
    for (const b of branches) if (b !== winner) b.scope.cancel();
  });
  for (const end of ends) recordEnd(ctx, tree, end, budget);
  ctx.progress.publish();
  if (CancellationScope.current().consideredCancelled) {
    chain.toolResult(
      {
        correlationId: call.id,
        success: false,
        result: null,
        error: 'The branches were cancelled with this run before one was chosen.',
        durationMs: Date.now() - startedAt,
        outcome: 'unknown',
      },
      visibility,
    );
    // The run's own cancellation goes on up (a branch's, else a new one: every branch may have reported).
    throw (
      ends.map((e) => ('error' in e ? e.error : undefined)).find(isCancellation) ??
      new CancelledFailure('The run was cancelled while its branches ran.')
    );
  }
  const finished = ends.filter(
    (e): e is Extract<BranchEnd, { result: AgentResult }> => 'result' in e && e.result.success,
  );
  if (finished.length === 0) {
    const why = `${sentence(`None of the ${branches.length} branches finished: ${inOrder(ends).map(endLine).join('; ')}`)} Decide whether to try again differently, or go on without them.`;
    chain.note('branch_choice', why, visibility);
    chain.toolResult(
      { correlationId: call.id, success: false, result: null, error: why, durationMs: Date.now() - startedAt },
      visibility,
    );
    return { callId: call.id, content: why, isError: true };
  }
  const choice = await choose(ctx, settings.choose, criteria, finished);
  const winner = finished.find((e) => e.branch.mark.index === choice.index)!;
  winner.branch.run = { ...winner.branch.run, branch: { ...winner.branch.mark, winner: true } };
  tree.put(winner.branch.run);
  const others = inOrder(ends.filter((e) => e !== winner)).map(endLine);
  const by = choice.by === 'judge' ? ` (the judge's pick, ${settings.judge?.model ?? input.model.model})` : '';
  chain.note(
    'branch_choice',
    sentence(
      `Going on with ${branchTitle(winner.branch.mark)}${by}: ${sentence(choice.reason)} The others: ${others.join('; ')}`,
    ),
    visibility,
  );
  const content = [
    `Branch ${choice.index} "${winner.branch.mark.label}" was chosen: ${sentence(choice.reason)}`,
    `Its answer: ${winner.result.finalAnswer}`,
    sentence(`The other branches: ${others.join('; ')}`),
  ].join('\n');
  chain.toolResult(
    {
      correlationId: call.id,
      success: true,
      result: content,
      durationMs: Date.now() - startedAt,
      subAgent: winner.branch.run,
    },
    visibility,
  );
  return { callId: call.id, content, isError: false };
}

/** The run's budget scaled to the branches' share; time and iterations are not shared out. */
function shareOf(left: ParentLeft, share: number): ParentLeft {
  return {
    ...left,
    tokens: left.tokens === undefined ? undefined : Math.floor(left.tokens * share),
    usd: left.usd === undefined ? undefined : left.usd * share,
  };
}

/** A branch is this agent again: its own instructions and model, the parent's tools (childInput inherits them). */
function branchDefinition(ctx: RunContext): SubAgentDefinition {
  const { systemPrompt } = ctx.input;
  return { description: 'a branch', ...(systemPrompt ? { instructions: systemPrompt } : {}), limits: {} };
}

/**
 * Waits for every branch; with `firstWins`, the first to succeed calls `stopOthers` and the rest
 * wind down (cancelled). Ends come back in the order they happened, so the first success is first.
 */
function settleBranches(
  started: ReadonlyArray<Promise<BranchEnd>>,
  firstWins: boolean,
  stopOthers: (winner: Branch) => void,
): Promise<BranchEnd[]> {
  const ends: BranchEnd[] = [];
  let won = false;
  return new Promise((done) => {
    for (const branch of started)
      void branch.then((end) => {
        ends.push(end);
        if (firstWins && !won && 'result' in end && end.result.success) {
          won = true;
          stopOthers(end.branch);
        }
        if (ends.length === started.length) done(ends);
      });
  });
}

/** The winner: the first success when the first wins; else the only finished branch, or the judge's pick. */
async function choose(
  ctx: RunContext,
  how: 'judge' | 'first_success',
  criteria: string,
  finished: ReadonlyArray<Extract<BranchEnd, { result: AgentResult }>>,
): Promise<BranchChoice> {
  const first = finished[0]!.branch.mark.index;
  if (how === 'first_success')
    return { index: first, reason: 'it finished first, and the others were stopped', by: 'rule' };
  if (finished.length === 1) return { index: first, reason: 'it is the only branch that finished', by: 'rule' };
  const read: FinishedBranch[] = [...finished]
    .sort((a, b) => a.branch.mark.index - b.branch.mark.index)
    .map(({ branch, result }) => ({
      mark: branch.mark,
      answer: result.finalAnswer,
      grounding: result.grounding,
      costUsd: result.costUsd,
      iterations: result.iterations,
    }));
  return judgeBranches(ctx, ctx.input.task, criteria, read);
}

/** A branch's end in the tree and the run's spend: its own when it reported, its whole sub-budget when not. */
function recordEnd(ctx: RunContext, tree: SubAgentTree, end: BranchEnd, budget: SubBudget): void {
  const { branch } = end;
  ctx.state.release(budget);
  tree.ended(branch.run.workflowId);
  if ('error' in end) {
    chargeUnknown(ctx.state, budget);
    branch.run = { ...branch.run, status: isCancellation(end.error) ? 'cancelled' : 'failed' };
    tree.put(branch.run);
    return;
  }
  branch.run = childEnded(ctx.state, branch.run, end.result);
  tree.put(branch.run);
}

/** `branch 1 “cheapest first”: failed (max_iterations): <the start of its answer>`, for the model and the choice step. */
function endLine(end: BranchEnd): string {
  const { run } = end.branch;
  const head = `${branchTitle(end.branch.mark)}: ${run.status}${run.terminationReason ? ` (${run.terminationReason})` : ''}`;
  if ('error' in end) return isCancellation(end.error) ? head : `${head}: ${failureMessage(end.error)}`;
  // One line among others, joined by semicolons: no full stop of its own.
  const answer = end.result.finalAnswer.replace(/\s+/g, ' ').trim().replace(/\.+$/, '');
  if (!answer) return head;
  const cut = answer.slice(0, MAX_LOSER_ANSWER_CHARS);
  return `${head}: ${cut}${cut.length < answer.length ? ' […]' : ''}`;
}

/** The text as a sentence: a full stop added unless it ends with one (an answer quoted last often does). */
const sentence = (text: string): string => (/[.!?…]$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`);

/** Ends in the model's order of approaches (they come back in the order they happened). */
const inOrder = (ends: readonly BranchEnd[]): BranchEnd[] =>
  [...ends].sort((a, b) => a.branch.mark.index - b.branch.mark.index);
