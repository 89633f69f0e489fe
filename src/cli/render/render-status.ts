import { totalTokens, type AgentStatus, type ViewerRole } from '../../domain';
import { renderPendingApproval } from '../../client/decisions/render-pending-approval';
import { renderPlan } from './render-plan';
import { renderSubAgentRow } from './render-sub-agent';
import { count, usd } from './terminal-style';
import { endingLines } from './render-ending';
import type { RunEnding } from '../../domain/run/run-ending';
import { counted } from '../../domain/text/counted';
import { timesText } from './render-step';
import { cliName } from '../../client/follow/cli-name';

/** "1,234 tokens (1,000 in, 234 out) of 50,000": what the run spent, against its budget when it has one. */
function spend(status: AgentStatus): string[] {
  const u = status.usage;
  const cache =
    u.cacheReadTokens || u.cacheWriteTokens
      ? `, ${count(u.cacheReadTokens)} cache read, ${count(u.cacheWriteTokens)} cache write`
      : '';
  const tokenBudget = status.tokenBudget !== undefined ? ` of ${count(status.tokenBudget)}` : '';
  const costBudget = status.costBudgetUsd !== undefined ? ` of ${usd(status.costBudgetUsd)}` : '';
  return [
    `Tokens:      ${count(totalTokens(u))}${tokenBudget} (${count(u.inputTokens)} in, ${count(u.outputTokens)} out${cache})`,
    `Cost:        ${usd(status.costUsd)}${costBudget}`,
  ];
}

/**
 * The run at a glance: its state (an ended run's from its ending, so a failed or cancelled run
 * never reads `completed`) and why it ended, how far it got, what it spent and what it waits for;
 * then the answer or the error.
 */
function summary(workflowId: string, status: AgentStatus, role: ViewerRole, ending: RunEnding | undefined): string {
  const continued = status.continuations ? ` · continued ${status.continuations}×` : '';
  const [ended, ...answerAndError] = ending ? endingLines(ending, { answer: true, width: 13 }) : [];
  return [
    `Run ${workflowId}: ${ending?.state ?? status.status}`,
    ...(ended ? [ended] : []),
    `Iteration:   ${status.iteration} of ${status.maxIterations} · ${counted(status.steps, 'step')}${continued}`,
    `Model:       ${status.model}`,
    ...(status.times ? [`Time:        ${timesText(status.times)}`] : []),
    // The end user's view, like its chain, leaves out tokens and cost (the operator's business).
    ...(role === 'end_user' ? [] : spend(status)),
    ...(status.waitingFor ? [`Waiting for: ${status.waitingFor}`] : []),
    ...(status.lastStep ? [`Last step:   ${status.lastStep}`] : []),
    ...(status.steeringQueued
      ? [`Steering:    ${counted(status.steeringQueued, 'instruction')} queued for the next thought`]
      : []),
    ...(status.cancelRequested
      ? [`Cancel:      requested (${status.cancelRequested}); the run finishes its step and summarises`]
      : []),
    ...answerAndError,
  ].join('\n');
}

/**
 * What `status` prints for people (`--json` prints the record itself): the run at a glance, then
 * the plan as a checklist, the direct sub-agents, the calls awaiting a decision anywhere in the
 * tree, and any open question. The `end_user` view shows no spend and no operator commands.
 * `ending`: an ended run's `runEnding`, made from its result in the same view.
 */
export function renderStatus(
  workflowId: string,
  status: AgentStatus,
  role: ViewerRole = 'developer',
  ending?: RunEnding,
): string {
  const { pendingApprovals, openQuestion, plan, subAgents } = status;
  const commands = role !== 'end_user';
  const sections = [summary(workflowId, status, role, ending)];
  if (plan) sections.push(renderPlan(plan));
  // Runs from before sub-agents existed answer without the field.
  if (subAgents?.length)
    sections.push(
      [`Sub-agents (${subAgents.length}):`, ...subAgents.map((r) => `  ${renderSubAgentRow(r)}`)].join('\n'),
    );
  sections.push(
    pendingApprovals.length
      ? `Pending approvals (${pendingApprovals.length}):\n${pendingApprovals.map((r) => renderPendingApproval(r, workflowId, { commands })).join('\n')}`
      : 'No calls awaiting approval.',
  );
  if (openQuestion)
    sections.push(
      `Open question (${openQuestion.callId}): ${openQuestion.question}\nAnswer with: ${cliName()} answer ${workflowId} "<text>"`,
    );
  return `${sections.join('\n\n')}\n`;
}
