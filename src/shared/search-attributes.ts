import { defineSearchAttributeKey } from '@temporalio/common';

/** Custom search attributes every run upserts; the dev server and docker-compose register them. */
export const StatusAttribute = defineSearchAttributeKey('ThoughtlineStatus', 'KEYWORD');
export const IterationAttribute = defineSearchAttributeKey('ThoughtlineIteration', 'INT');
export const TokensAttribute = defineSearchAttributeKey('ThoughtlineTokens', 'INT');
export const CostAttribute = defineSearchAttributeKey('ThoughtlineCostUsd', 'DOUBLE');
export const ModelAttribute = defineSearchAttributeKey('ThoughtlineModel', 'KEYWORD');

/** Name and `temporal` CLI type of each attribute, for `--search-attribute Name=Type`. */
export const SEARCH_ATTRIBUTES: ReadonlyArray<{ name: string; cliType: 'Keyword' | 'Int' | 'Double' }> = [
  { name: StatusAttribute.name, cliType: 'Keyword' },
  { name: IterationAttribute.name, cliType: 'Int' },
  { name: TokensAttribute.name, cliType: 'Int' },
  { name: CostAttribute.name, cliType: 'Double' },
  { name: ModelAttribute.name, cliType: 'Keyword' },
];
