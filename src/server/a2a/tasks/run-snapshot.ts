import type { AgentResult, AgentStatus, ApprovalRecord, BudgetPause, ViewerRole } from '../../../domain';
import type { ApiContext } from '../../api-route';
import type { Identity } from '../../auth/identity';
import { liveRead } from '../../live-read';
import { statusInLens } from '../../policy/apply-lens';
import type { RunEnding } from '../../../domain/run/run-ending';
import { viewedEnding } from '../../protocols/viewed-ending';
import type { RunFacts } from '../../run-access';

/** What the run waits for from a person, as the caller's view shows it. */
export type RunInput =
  | { kind: 'approval'; record: ApprovalRecord }
  | { kind: 'question'; callId: string; question: string; expiresAt: string }
  | { kind: 'budget'; pause: BudgetPause };

/** A run as an A2A task sees it: the few facts the task's state, message and artifact come from. */
export type RunSnapshot =
  /** Started; its first workflow task has not ended, so nothing can be read yet. */
  (
    | { state: 'submitted'; runId: string }
    | { state: 'working'; runId: string; status: AgentStatus }
    | { state: 'input-required'; runId: string; status: AgentStatus; input: RunInput }
    /**
     * Ended: its ending (runEnding) and, when it recorded one, its result, both in the caller's
     * view and lens. Without a result the workflow failed, was terminated, timed out or was
     * cancelled by Temporal, and the ending says which. `view`: the view they are in (the
     * caller's, from its authenticated identity).
     */
    | { state: 'ended'; runId: string; ending: RunEnding; result?: AgentResult; view?: ViewerRole }
  ) & {
    /** The workflow that started the run (a thread, for a turn of one). */
    parentRunId?: string;
  };

/** Reads the run's status in a view; undefined when the run cannot be read yet (just started). */
export type StatusReader = (view: ReturnType<ApiContext['viewFor']>) => Promise<AgentStatus | undefined>;

/** The first thing the run waits for: an approval (oldest first), else its open question, else a raise of its budget. */
export function inputOf(status: AgentStatus): RunInput | undefined {
  const record = status.pendingApprovals.find((r) => r.status === 'pending');
  if (record) return { kind: 'approval', record };
  const question = status.openQuestion;
  if (question) return { kind: 'question', ...question };
  if (status.budgetPause) return { kind: 'budget', pause: status.budgetPause };
  return undefined;
}

/**
 * The run `runId` as `identity` may see it (another tenant's run is not found): a running run from
 * its `status` (`readStatus`, default a live read bounded by the server's query timeout) in the
 * caller's view and lens; an ended one from its result in history, in the same view and lens,
 * and its ending (viewedEnding; no worker needed).
 */
export async function readRunSnapshot(
  ctx: ApiContext,
  identity: Identity,
  runId: string,
  readStatus?: StatusReader,
): Promise<RunSnapshot> {
  return snapshotOf(ctx, identity, await ctx.accessRun(identity, runId), readStatus);
}

/** `readRunSnapshot` for a run whose facts (access checked, state) are already known. */
export async function snapshotOf(
  ctx: ApiContext,
  identity: Identity,
  facts: RunFacts,
  readStatus?: StatusReader,
): Promise<RunSnapshot> {
  const runId = facts.workflowId;
  const parent = facts.parentRunId ? { parentRunId: facts.parentRunId } : {};
  if (facts.state === 'running' || facts.state === 'continued') {
    const view = ctx.viewFor(identity, undefined);
    const lens = await ctx.lensFor?.(identity, view, facts);
    const raw = readStatus
      ? await readStatus(view)
      : await liveRead(() => ctx.agents.status(runId, view), ctx.queryTimeoutMs);
    if (!raw) return { state: 'submitted', runId, ...parent };
    const status = statusInLens(raw, view, lens);
    const input = inputOf(status);
    return input
      ? { state: 'input-required', runId, status, input, ...parent }
      : { state: 'working', runId, status, ...parent };
  }
  const view = ctx.viewFor(identity, undefined);
  const { ending, result } = await viewedEnding(ctx, identity, facts, view);
  return { state: 'ended', runId, ending, ...(result ? { result } : {}), view, ...parent };
}
