import { ChildWorkflowCancellationType, ParentClosePolicy, isCancellation, startChild } from '@temporalio/workflow';
import { totalTokens, type AgentResult, type SubAgentRun, type ToolUseBlock } from '../../domain';
import { ownValue } from '../../domain/text/own-value';
import type { ToolCallStep } from '../core/chain/chain-builder';
import { failureMessage } from '../core/failure-message';
import { childWorkflowId } from '../core/chain/record-calls';
import type { Observation, ValidCall } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import type { RunState } from '../core/state/run-state';
import { toolStepVisibility } from '../core/chain/tool-visibility';
import { chargeUnknown } from './charge-unknown';
import { childEnded } from './child-ended';
import { childInput } from './child-input';
import { delegationBlocked, delegationPath, maxDepthOf } from './delegation-guard';
import { runRemoteAgentCall } from './remote-agent-call';
import { carveSubBudget, type ParentLeft } from './sub-budget';
import type { SubAgentTree } from './sub-agent-tree';

/** Where a delegation sits in its turn: the run's tree of children, and this call's share of the budget. */
export interface Delegation {
  tree: SubAgentTree;
  /** Sub-agent calls of this turn not started yet, this one included: each gets an equal share. */
  sharers: number;
}

/**
 * Delegates one call to a catalogue agent as a child `agentWorkflow`: guards (cycle, depth,
 * budget left) first, each a visible refusal the model reads; then the child runs on a sub-budget
 * carved from what this run has left, which stays reserved until its spend is known and rolled
 * up. Whatever the child's ending, its answer comes back as the observation, partial or not.
 */
export async function runSubAgentCall(
  ctx: RunContext,
  { tree, sharers }: Delegation,
  call: ToolUseBlock,
  { spec, args }: ValidCall,
  /** The call's step, recorded by the tool turn; it names the child run (`delegatedTo`). */
  callStep: ToolCallStep,
): Promise<Observation> {
  const { input, chain, workflowId } = ctx;
  const visibility = toolStepVisibility(input, spec, args);
  const childId =
    callStep.toolCall.delegatedTo?.workflowId ?? childWorkflowId(workflowId, spec.name, callStep.stepNumber);
  const definition = ownValue(input.agents, spec.name);
  const path = delegationPath(input, workflowId);
  const blocked = definition
    ? delegationBlocked(path, spec.name, maxDepthOf(input))
    : `Delegation refused: "${spec.name}" is not in this run's agent catalogue.`;
  const carved = definition && !blocked ? carveSubBudget(definition.limits, parentLeft(ctx), sharers) : undefined;
  const refusal =
    blocked ??
    (carved && 'refused' in carved
      ? `Delegation refused: ${carved.refused}. Do this part yourself, or finish with what you have.`
      : undefined);
  if (refusal || !carved || 'refused' in carved || !definition) {
    const why = refusal ?? 'Delegation refused.';
    chain.note('delegation_blocked', why, { level: 'full' });
    tree.put({
      callId: call.id,
      agentName: spec.name,
      workflowId: childId,
      status: 'refused',
      budget: { maxIterations: 1 },
    });
    chain.toolResult({ correlationId: call.id, success: false, result: null, error: why, durationMs: 0 }, visibility);
    return { callId: call.id, content: why, isError: true };
  }

  const { budget } = carved;
  const task = typeof args['task'] === 'string' ? args['task'] : JSON.stringify(args);
  if (definition.a2a)
    return runRemoteAgentCall(ctx, tree, call, {
      agentName: spec.name,
      ref: definition.a2a,
      task,
      budget,
      visibility,
      childId,
    });
  const childPath = [...path, { agentName: spec.name, workflowId: childId }];
  const running: SubAgentRun = {
    callId: call.id,
    agentName: spec.name,
    workflowId: childId,
    status: 'running',
    budget,
  };
  ctx.state.reserve(budget);
  tree.put(running);
  ctx.state.countToolCall();
  ctx.progress.publish();
  const startedAt = Date.now();
  try {
    const child = await startChild('agentWorkflow', {
      workflowId: childId,
      args: [childInput(input, definition, task, budget, childPath, maxDepthOf(input))],
      // Cancelling this run cancels the child and waits for it to wind down and report.
      cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      staticSummary: `sub-agent ${spec.name} · delegated by ${path[path.length - 1]!.agentName} (${workflowId}), step ${callStep.stepNumber}`,
      staticDetails: task.slice(0, 2_000),
    });
    tree.put({ ...running, runId: child.firstExecutionRunId });
    const result = (await child.result()) as AgentResult;
    return ended(ctx, tree, call, running, child.firstExecutionRunId, result, Date.now() - startedAt, visibility);
  } catch (err) {
    // The child's spend is unknown (it failed or never reported): charge its whole sub-budget, so the tree's budget holds.
    const charged = chargeUnknown(ctx.state, budget);
    const cancelled = isCancellation(err);
    const error = cancelled
      ? `Sub-agent ${spec.name} was cancelled with this run before it reported.${charged}`
      : `Sub-agent ${spec.name} (${childId}) failed: ${failureMessage(err)}.${charged} Decide whether to retry, ask another agent, or go on without it.`;
    tree.put({ ...running, status: cancelled ? 'cancelled' : 'failed' });
    chain.toolResult(
      {
        correlationId: call.id,
        success: false,
        result: null,
        error,
        durationMs: Date.now() - startedAt,
        ...(cancelled ? { outcome: 'unknown' as const } : {}),
      },
      visibility,
    );
    if (cancelled) throw err;
    return { callId: call.id, content: error, isError: true };
  } finally {
    ctx.state.release(budget);
    tree.ended(childId);
    ctx.progress.publish();
  }
}

function ended(
  ctx: RunContext,
  tree: SubAgentTree,
  call: ToolUseBlock,
  running: SubAgentRun,
  runId: string,
  result: AgentResult,
  durationMs: number,
  visibility: ReturnType<typeof toolStepVisibility>,
): Observation {
  const run = childEnded(ctx.state, { ...running, runId }, result);
  tree.put(run);
  const why = result.error ? ` (${result.error})` : '';
  const error = result.success
    ? undefined
    : `Sub-agent ${run.agentName} did not finish its task (it stopped: ${result.terminationReason}${why}).`;
  ctx.chain.toolResult(
    {
      correlationId: call.id,
      success: result.success,
      result: result.finalAnswer,
      durationMs,
      subAgent: run,
      ...(error ? { error } : {}),
    },
    visibility,
  );
  if (result.success) return { callId: call.id, content: result.finalAnswer, isError: false };
  // An ungrounded summary (core/grounding.ts) is not passed on as if the child had found it out.
  const what =
    result.grounding === 'ungrounded'
      ? ' What it had so far (ungrounded: no tool result of its own stands behind it)'
      : ' What it had so far';
  const partial = result.finalAnswer.trim() ? `${what}: ${result.finalAnswer}` : ' It left no answer.';
  return { callId: call.id, content: `${error}${partial}`, isError: true };
}

/** What this run can still give a child: its budgets minus spend and running siblings' reservations. */
export function parentLeft(ctx: RunContext): ParentLeft {
  const { input, state } = ctx;
  const spent = state.committed();
  const tokensSpent = totalTokens(spent.usage);
  return {
    tokens: input.tokenBudget !== undefined ? input.tokenBudget - tokensSpent : undefined,
    usd: input.costBudgetUsd !== undefined ? input.costBudgetUsd - spent.costUsd : undefined,
    msLeft: input.runTimeoutMs !== undefined ? state.startedAtMs + input.runTimeoutMs - Date.now() : undefined,
    iterations: input.maxIterations - state.iteration,
  };
}

/**
 * When this run ends without waiting for a child to report (it did not wind down within the
 * settle window), the child is recorded as cancelled and its whole sub-budget is charged.
 */
export function abandonRunningChildren(tree: SubAgentTree, state: RunState): void {
  for (const run of tree.running()) {
    chargeUnknown(state, run.budget);
    state.release(run.budget);
    tree.put({ ...run, status: 'cancelled' });
    tree.ended(run.workflowId);
  }
}
