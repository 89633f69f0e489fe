import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { CostAttribute, ExperimentAttribute, StatusAttribute, TokensAttribute, VariantAttribute } from '../../domain';
import { ExperimentName } from '../../domain/agents/agent-experiment';
import {
  summariseExperiment,
  type ExperimentReport,
  type ExperimentRunReading,
} from '../../domain/evaluation/experiment-report';
import { readRunScores } from './run-scores';

/** Runs an experiment report reads by default (the newest), and at most. */
export const DEFAULT_EXPERIMENT_RUNS = 1_000;
export const MAX_EXPERIMENT_RUNS = 10_000;
/** Scores read at once (each a describe, then a query or a result read). */
const SCORE_READS_AT_ONCE = 8;

export interface ExperimentReportOptions {
  /** Runs started at or after this time only. */
  since?: Date;
  /** The newest this many runs (default 1,000, at most 10,000). */
  limit?: number;
}

const quoted = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * Per-variant success, cost, tokens, latency and late scores of the runs of `experiment` (by the
 * `ThoughtlineExperiment` search attribute), newest first up to the limit. Each run's ending comes
 * from visibility (`ThoughtlineStatus`, `ThoughtlineCostUsd`, `ThoughtlineTokens`, start and close
 * times: no history read), its scores from its scores workflow. Listing is eventually consistent:
 * a run that just recorded its variant may show a moment later.
 */
export async function experimentReport(
  client: Client,
  experiment: string,
  options: ExperimentReportOptions = {},
): Promise<ExperimentReport> {
  const name = ExperimentName.parse(experiment);
  const limit = options.limit ?? DEFAULT_EXPERIMENT_RUNS;
  if (!(Number.isInteger(limit) && limit > 0 && limit <= MAX_EXPERIMENT_RUNS))
    throw new RangeError(`limit is a whole number from 1 to ${MAX_EXPERIMENT_RUNS}, not ${limit}.`);
  const clauses = [`WorkflowType = 'agentWorkflow'`, `${ExperimentAttribute.name} = ${quoted(name)}`];
  if (options.since) clauses.push(`StartTime >= ${quoted(options.since.toISOString())}`);
  const listed = new Map<string, WorkflowExecutionInfo>();
  let truncated = false;
  // Continue-as-new lists a run once per Temporal run, newest first: the first seen is its latest.
  for await (const info of client.workflow.list({ query: clauses.join(' AND ') })) {
    if (listed.has(info.workflowId)) continue;
    if (listed.size >= limit) {
      truncated = true;
      break;
    }
    listed.set(info.workflowId, info);
  }
  const infos = [...listed.values()];
  const readings: ExperimentRunReading[] = new Array(infos.length);
  let next = 0;
  const reader = async (): Promise<void> => {
    while (next < infos.length) {
      const i = next++;
      readings[i] = await reading(client, infos[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SCORE_READS_AT_ONCE, infos.length) }, reader));
  return summariseExperiment(name, readings, { limit, truncated });
}

/** One run as the report counts it: its variant and ending from visibility, its scores from its scores workflow. */
async function reading(client: Client, info: WorkflowExecutionInfo): Promise<ExperimentRunReading> {
  const attributes = info.typedSearchAttributes;
  const ended = info.status.name !== 'RUNNING' && info.closeTime !== undefined;
  const cost = attributes.get(CostAttribute);
  const tokens = attributes.get(TokensAttribute);
  const scores = await readRunScores(client, info.workflowId);
  return {
    workflowId: info.workflowId,
    variant: attributes.get(VariantAttribute) ?? '(unknown)',
    ended,
    // The run's last upsert sets its termination reason as its status (publish-progress.ts).
    success: ended && info.status.name === 'COMPLETED' && attributes.get(StatusAttribute) === 'success',
    ...(ended && cost !== undefined ? { costUsd: cost } : {}),
    ...(ended && tokens !== undefined ? { tokens } : {}),
    ...(ended ? { latencyMs: info.closeTime!.getTime() - info.startTime.getTime() } : {}),
    scores: scores.map((s) => ({ name: s.name, value: s.value })),
  };
}
