import { cliName } from '../../client/follow/cli-name';
import {
  remoteChainHeading,
  REMOTE_STEP_LABELS,
  subAgentTitle,
  totalTokens,
  type SubAgentRun,
  type SubBudget,
} from '../../domain';
import { count, usd } from './terminal-style';
import { counted } from '../../domain/text/counted';
import { subAgentAnswerNote } from '../../domain/chain/answer-grounding';

const duration = (ms: number): string => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`);

/** What was carved from the parent: "budget 8 iterations, 20,000 tokens, $0.5000, 5 min". */
export function renderSubBudget(b: SubBudget): string {
  const parts = [counted(b.maxIterations, 'iteration')];
  if (b.tokenBudget !== undefined) parts.push(`${count(b.tokenBudget)} tokens`);
  if (b.costBudgetUsd !== undefined) parts.push(usd(b.costBudgetUsd));
  if (b.runTimeoutMs !== undefined) parts.push(duration(b.runTimeoutMs));
  return `budget ${parts.join(', ')}`;
}

/** "completed (success)", "running", "refused": the parent's view of the child. */
export const subAgentState = (run: SubAgentRun): string =>
  run.terminationReason ? `${run.status} (${run.terminationReason})` : run.status;

/** "7 steps, 1,234 tokens, $0.0123": whatever of it the parent recorded (set once the child ended). */
export function subAgentSpend(run: SubAgentRun): string {
  const parts: string[] = [];
  if (run.steps !== undefined) parts.push(counted(run.steps, 'step'));
  if (run.usage) parts.push(`${count(totalTokens(run.usage))} tokens`);
  if (run.costUsd !== undefined) parts.push(usd(run.costUsd));
  return parts.join(', ');
}

/** The line under a sub_agent result, ending with the command that shows the child's own chain. */
export function renderSubAgentOutcome(run: SubAgentRun): string {
  const spend = subAgentSpend(run);
  // A child's answer with no tool result, or not one for each claim, behind it says so (core/grounding.ts).
  const unbacked = subAgentAnswerNote(run);
  const head = `↳ ${subAgentTitle(run)} ${run.terminationReason ?? run.status}${unbacked}${spend ? `: ${spend}` : ''}`;
  // A refused child never started, so there is no chain to point to.
  return run.status === 'refused' ? head : `${head} — ${cliName()} chain ${run.workflowId}`;
}

/** A remote agent's linked chain, under its result: the heading, then one line per step it gave (none without a chain). */
export function renderRemoteChain(run: SubAgentRun): string[] {
  const chain = run.remote?.chain;
  if (!chain) return [];
  return [
    `  ${remoteChainHeading(run.agentName, chain)}`,
    ...chain.steps.map((s) => `    ${REMOTE_STEP_LABELS[s.type].padEnd(11)} ${s.text}`),
  ];
}

/** One row of a run's sub-agent list: agent, workflow id, state. */
export function renderSubAgentRow(run: SubAgentRun): string {
  const spend = subAgentSpend(run);
  return `${subAgentTitle(run)}  ${run.workflowId}  ${subAgentState(run)}${spend ? ` · ${spend}` : ''}`;
}
