import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import {
  AgentVersionAttribute,
  CostAttribute,
  ExperimentAttribute,
  VariantAttribute,
  IterationAttribute,
  ModelAttribute,
  RUNNING_STATUS,
  StatusAttribute,
  TokensAttribute,
  renderChainMarkdown,
  totalTokens,
  type AgentStatus,
  type ReasoningChain,
} from '../../domain';
import type { SearchAttributePair } from '@temporalio/common';
import type { ExperimentRef } from '../../domain/agents/agent-experiment';
import { viewChain } from '../../domain/chain/chain-view';
import type { ChainBuilder } from '../core/chain/chain-builder';
import type { Progress } from '../core/state/run-context';
import { detailsWhenRead } from './details-when-read';

/** Steps shown under "Current Details". */
const DETAIL_STEPS = 40;

/**
 * The latest steps, plus the calls their results answer (so the view redacts those results'
 * sensitive fields): the view then costs the same at step 50 and at step 5,000.
 */
function latestSteps(chain: ReasoningChain): ReasoningChain {
  const tail = chain.steps.slice(-DETAIL_STEPS);
  const answered = new Set(tail.flatMap((s) => (s.type === 'tool_result' ? [s.toolResult.correlationId] : [])));
  const calls = chain.steps
    .slice(0, -DETAIL_STEPS)
    .filter((s) => s.type === 'tool_call' && answered.has(s.toolCall.correlationId));
  const { approvals: _approvals, ...rest } = chain;
  return { ...rest, steps: [...calls, ...tail] };
}

/** The Web UI's page of a run, relative to the UI's origin, so parent and child link to each other. */
function webUiLink(workflowId: string): string {
  return `/namespaces/${encodeURIComponent(workflowInfo().namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

/**
 * What outside observers see of a run: `details` marks the Web UI's markdown changed (no history
 * event); `publish` also upserts the search attributes when due (one event; see upsertPolicy),
 * with an explicit status value once the run has ended.
 */
export function createProgress(chain: ChainBuilder, status: () => AgentStatus): Progress {
  // Anyone who can open the run in the Web UI reads this: the developer view, never the raw chain.
  const render = (): string => {
    const snapshot = chain.snapshot();
    return renderChainMarkdown(viewChain(latestSteps(snapshot), 'developer'), DETAIL_STEPS, chain.stepCount, webUiLink);
  };
  const shown = detailsWhenRead(render);
  // Typed as a string by the SDK, which only ever turns it into JSON (see details-when-read.ts).
  setCurrentDetails(shown.details as unknown as string);
  const upserts = upsertPolicy(statusAtStart());
  const publish = (statusValue?: string): void => {
    const s = status();
    const searchable: Searchable = {
      status: statusValue ?? searchableStatus(s),
      model: s.model,
      iteration: s.iteration,
      tokens: totalTokens(s.usage),
      costUsd: s.costUsd,
    };
    if (upserts.due(searchable, statusValue !== undefined)) {
      upsertSearchAttributes([
        { key: StatusAttribute, value: searchable.status },
        { key: IterationAttribute, value: searchable.iteration },
        { key: TokensAttribute, value: searchable.tokens },
        { key: CostAttribute, value: searchable.costUsd },
        { key: ModelAttribute, value: searchable.model },
        // Known once the run resolved its definition: rides along with the upserts above, never one of its own.
        ...(chain.agent ? [{ key: AgentVersionAttribute, value: chain.agent.version }] : []),
        ...experimentAttributes(chain.agent?.experiment),
      ]);
    }
    shown.changed();
  };
  return { details: shown.changed, publish };
}

/** The experiment and variant of a run assigned one; nothing for any other run, whose upserts stay as they were. */
function experimentAttributes(experiment: ExperimentRef | undefined): SearchAttributePair[] {
  if (!experiment) return [];
  return [
    { key: ExperimentAttribute, value: experiment.name },
    { key: VariantAttribute, value: experiment.variant },
  ];
}

/** What the search attributes show of a run. */
interface Searchable {
  status: string;
  model: string;
  iteration: number;
  tokens: number;
  costUsd: number;
}

/**
 * The status as the run's start set it (`agentStartOptions` starts a run `running`), or as the
 * Temporal run before a handover left it: a first publish that does not change it is no upsert.
 * Undefined for a run started without one (a sub-agent), whose first publish upserts.
 */
function statusAtStart(): string | undefined {
  return workflowInfo().typedSearchAttributes.get(StatusAttribute);
}

/**
 * Whether a publish upserts: each upsert is a billable action, a command and a history event, so
 * only a change of status from what the run last showed (its start included) and the run's last
 * publish do. The model that answered, iteration, tokens, cost, the agent's version and an
 * experiment's variant ride along with those (a provider names the model that answered, often
 * not as it was asked for, so a model change at every run's first reply would cost an action);
 * between them the `status` query and the chain are current.
 */
function upsertPolicy(started: string | undefined): { due(next: Searchable, final: boolean): boolean } {
  let last = started;
  return {
    due(next, final) {
      const due = final || last !== next.status;
      if (due) last = next.status;
      return due;
    },
  };
}

/** The Web UI filters on these: a run waiting for an approval, for a raise of its budget, for any other input, or running. */
function searchableStatus(s: AgentStatus): string {
  if (s.pendingApprovals.length > 0) return 'waiting_approval';
  if (s.budgetPause) return 'awaiting_budget';
  if (s.waitingFor) return 'waiting_input';
  return s.status === 'thinking' || s.status === 'tool_calling' ? RUNNING_STATUS : s.status;
}
