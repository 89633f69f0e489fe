import type { ScriptedTurn } from '../../activities/models/scripted-model';
import { loadRecordedTurns } from '../../activities/recording';
import type { ModelProvider } from '../../domain/model/model-provider';
import type { ToolDefinition } from '../../tools/define-tool';
import { createReplayModel } from './replay-model';
import { readRecordedExecutions, replayRecordedTools, type RecordedExecutions } from './replay-tools';

export interface EvalReplayOptions {
  /** The evaluation's workflow id: its case runs are `${evaluationId}/${caseId}/…` (caseWorkflowId). */
  evaluationId: string;
  /** The cases that replay, each with its recording (a `run --record` JSONL file, path resolved by the caller). */
  cases: ReadonlyArray<{ id: string; recordingFile: string }>;
}

export interface EvalReplay {
  /** Register as the worker's `replay` model provider; runs ask for `{ provider: 'replay', model: <caseId> }`. */
  provider: ModelProvider;
  /** The worker's tools, answering replayed cases' runs from their recordings and running for everyone else. */
  wrapTools(tools: readonly ToolDefinition[]): ToolDefinition[];
}

/**
 * What a worker needs to replay an evaluation's recorded cases. Every recording is read now, so a
 * missing or malformed file fails before the evaluation starts rather than in its runs.
 */
export function createEvalReplay({ evaluationId, cases }: EvalReplayOptions): EvalReplay {
  const turns = new Map<string, ScriptedTurn[]>();
  const executions = new Map<string, { file: string; executions: RecordedExecutions }>();
  for (const c of cases) {
    turns.set(c.id, loadRecordedTurns(c.recordingFile));
    executions.set(c.id, { file: c.recordingFile, executions: readRecordedExecutions(c.recordingFile) });
  }
  const prefix = `${evaluationId}/`;
  const recordingOf = (workflowId: string) => {
    if (!workflowId.startsWith(prefix)) return undefined;
    const caseId = workflowId.slice(prefix.length).split('/')[0]!;
    return executions.get(caseId);
  };
  return {
    provider: createReplayModel((caseId) => turns.get(caseId)),
    wrapTools: (tools) => replayRecordedTools(tools, recordingOf),
  };
}
