import { defineSearchAttributeKey } from '@temporalio/common';
import type { SearchAttributeKey, SearchAttributeType } from '@temporalio/common/lib/search-attributes';

/** Custom search attributes every run upserts; the dev server and docker-compose register them. */
export const StatusAttribute = defineSearchAttributeKey('ThoughtlineStatus', 'KEYWORD');
/**
 * `ThoughtlineStatus` of a live run neither waiting for a person nor paused, from its start on:
 * a list cannot keep up with its thinking and calling tools, and a run whose first reply changes
 * nothing a list filters on upserts nothing for it (publish-progress.ts).
 */
export const RUNNING_STATUS = 'running';
export const IterationAttribute = defineSearchAttributeKey('ThoughtlineIteration', 'INT');
export const TokensAttribute = defineSearchAttributeKey('ThoughtlineTokens', 'INT');
export const CostAttribute = defineSearchAttributeKey('ThoughtlineCostUsd', 'DOUBLE');
export const ModelAttribute = defineSearchAttributeKey('ThoughtlineModel', 'KEYWORD');
/** The caller's tenant, set at start; absent for a run without one. The server lists and checks runs by it. */
export const TenantAttribute = defineSearchAttributeKey('ThoughtlineTenant', 'KEYWORD');
/** The agent's name, set at start (with or without a tenant): its presence marks a run started with both. */
export const AgentAttribute = defineSearchAttributeKey('ThoughtlineAgent', 'KEYWORD');
/**
 * The version of the agent definition a run follows (docs/concepts.md): set at start when the
 * caller sent the definition inline, else with the run's first upsert once it resolved `agent`.
 */
export const AgentVersionAttribute = defineSearchAttributeKey('ThoughtlineAgentVersion', 'KEYWORD');
/** Who started the run (`caller.id`), set at start; absent when the input names nobody. */
export const CallerAttribute = defineSearchAttributeKey('ThoughtlineCaller', 'KEYWORD');
/** On a fork: the workflow id it was forked from, so the original lists its forks with one query. */
export const ForkedFromAttribute = defineSearchAttributeKey('ThoughtlineForkedFrom', 'KEYWORD');
/**
 * A run of an agent with a live experiment (docs/evaluation.md): the experiment's name and the
 * variant the run was assigned, with the run's first upsert once it resolved its definition (no
 * action of their own); absent on every other run.
 */
export const ExperimentAttribute = defineSearchAttributeKey('ThoughtlineExperiment', 'KEYWORD');
export const VariantAttribute = defineSearchAttributeKey('ThoughtlineVariant', 'KEYWORD');

/** Each attribute once: its typed key, and its name and type as the `temporal` CLI spells them. */
export const SEARCH_ATTRIBUTES: ReadonlyArray<{
  key: SearchAttributeKey<SearchAttributeType>;
  name: string;
  cliType: 'Keyword' | 'Int' | 'Double';
}> = [
  { key: StatusAttribute, name: StatusAttribute.name, cliType: 'Keyword' },
  { key: IterationAttribute, name: IterationAttribute.name, cliType: 'Int' },
  { key: TokensAttribute, name: TokensAttribute.name, cliType: 'Int' },
  { key: CostAttribute, name: CostAttribute.name, cliType: 'Double' },
  { key: ModelAttribute, name: ModelAttribute.name, cliType: 'Keyword' },
  { key: TenantAttribute, name: TenantAttribute.name, cliType: 'Keyword' },
  { key: AgentAttribute, name: AgentAttribute.name, cliType: 'Keyword' },
  { key: AgentVersionAttribute, name: AgentVersionAttribute.name, cliType: 'Keyword' },
  { key: CallerAttribute, name: CallerAttribute.name, cliType: 'Keyword' },
  { key: ForkedFromAttribute, name: ForkedFromAttribute.name, cliType: 'Keyword' },
  { key: ExperimentAttribute, name: ExperimentAttribute.name, cliType: 'Keyword' },
  { key: VariantAttribute, name: VariantAttribute.name, cliType: 'Keyword' },
];
