import type { SearchAttributePair } from '@temporalio/common';
import {
  AgentAttribute,
  AgentVersionAttribute,
  CallerAttribute,
  ForkedFromAttribute,
  ModelAttribute,
  RUNNING_STATUS,
  StatusAttribute,
  TenantAttribute,
  type AgentInput,
} from '../../domain';
import { ORIGIN_MEMO_KEY, type RunOrigin } from '../../domain/run/run-origin';

/** What every start of `agentWorkflow` sets besides its id and queue: a direct start and a Schedule's action alike. */
export interface AgentStartOptions {
  args: [AgentInput];
  staticSummary: string;
  staticDetails: string;
  typedSearchAttributes: SearchAttributePair[];
  memo: Record<string, unknown>;
}

const shortTask = (task: string): string => (task.length > 200 ? `${task.slice(0, 199)}…` : task);

/**
 * The summary, details, search attributes and memo of a run of `input`, the same whoever starts
 * it, so a scheduled or triggered run lists, filters and is attributed as a direct one. `origin`
 * goes into the memo only (written with the start, no action of its own).
 */
export function agentStartOptions(input: AgentInput, origin?: RunOrigin): AgentStartOptions {
  return {
    args: [input],
    staticSummary: shortTask(input.task),
    staticDetails: `Agent **${input.agentName}** · model \`${input.model.provider}/${input.model.model}\` · up to ${input.maxIterations} iterations`,
    typedSearchAttributes: [
      { key: StatusAttribute, value: RUNNING_STATUS },
      { key: ModelAttribute, value: input.model.model },
      { key: AgentAttribute, value: input.agentName },
      // A definition sent inline is known now; one the worker resolves by name is upserted by the run.
      ...(input.definition ? [{ key: AgentVersionAttribute, value: input.definition.version }] : []),
      ...(input.caller?.tenant ? [{ key: TenantAttribute, value: input.caller.tenant }] : []),
      ...(input.caller ? [{ key: CallerAttribute, value: input.caller.id }] : []),
      ...(input.fork ? [{ key: ForkedFromAttribute, value: input.fork.from.workflowId }] : []),
    ] as SearchAttributePair[],
    // What a run list shows; the whole task stays in the input.
    memo: { task: shortTask(input.task), ...(origin ? { [ORIGIN_MEMO_KEY]: origin } : {}) },
  };
}
