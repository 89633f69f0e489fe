import type { AgentStatus, ReasoningChain, SubAgentRun, ViewerRole } from '../../domain';
import { viewChain, viewStatus } from '../../domain/chain/chain-view';
import { progressSummary, type ProgressSummary, type ViewLens } from '../../domain/visibility';
import { ApiError } from '../api-error';
import type { LensTarget } from './lens-for';

/*
 * Every server read of a run goes through these after reading it in the caller's view: the lens
 * is applied by the views' own functions (never by filtering here), so the API shows what the
 * `chain` query, the export and the viewer show. A view of a view only narrows.
 */

/** The chain in `view` narrowed by `lens`; unchanged without one. */
export const chainInLens = (chain: ReasoningChain, view: ViewerRole, lens: ViewLens | undefined): ReasoningChain =>
  lens ? viewChain(chain, view, lens) : chain;

/** The status record in `view` narrowed by `lens`; unchanged without one. */
export const statusInLens = (status: AgentStatus, view: ViewerRole, lens: ViewLens | undefined): AgentStatus =>
  lens ? viewStatus(status, view, [], lens) : status;

/**
 * A sub-agent's entry (an event stream's `sub_agent` event) as the lens's `subChains` shows it:
 * undefined when it hides sub-agents. Put through `viewStatus`, which shapes a status record's
 * sub-agents, so the stream shows what `GET /v1/runs/{id}` shows.
 */
export function subAgentInLens(
  entry: SubAgentRun,
  view: ViewerRole,
  lens: ViewLens | undefined,
): SubAgentRun | undefined {
  if (!lens) return entry;
  const record = { pendingApprovals: [], subAgents: [entry] } as unknown as AgentStatus;
  return viewStatus(record, view, [], lens).subAgents[0];
}

/**
 * How a run may be shown to this viewer: a sub-agent's own run follows the lens's `subChains`
 * (hidden: refused with 403 naming the policy; summary: its progress summary, no steps); any
 * other run, in full.
 */
export function subChainShown(lens: ViewLens | undefined, target: LensTarget): 'full' | 'summary' {
  if (!lens || target.parentRunId === undefined || lens.subChains === undefined || lens.subChains === 'full')
    return 'full';
  if (lens.subChains === 'hidden')
    throw new ApiError(
      'forbidden',
      `The visibility policy hides sub-agents' own chains from the ${lens.view} view (subChains: hidden); this run is a sub-agent of ${target.parentRunId}: read that run instead.`,
    );
  return 'summary';
}

/** The progress lines a reader shows first: when the viewer chose summaries only, or the run is a sub-agent shown as its summary. */
export function progressFor(
  chain: ReasoningChain,
  lens: ViewLens | undefined,
  shown: 'full' | 'summary',
): ProgressSummary | undefined {
  if (shown === 'summary' || lens?.summariesOnly) return progressSummary(chain);
  return undefined;
}

/** A sub-agent's run shown as its summary only: its head, without steps or approval records. */
export function withoutSteps(chain: ReasoningChain): ReasoningChain {
  const { approvals: _approvals, ...head } = chain;
  const hiddenSteps = (chain.view?.hiddenSteps ?? 0) + chain.steps.length;
  return { ...head, steps: [], view: { role: chain.view?.role ?? 'end_user', hiddenSteps } };
}
