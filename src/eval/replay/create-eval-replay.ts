import path from 'node:path';
import type { ScriptedTurn } from '../../activities/models/scripted-model';
import { MAX_RECORDING_BYTES, recordedTurnsOf } from '../../activities/recording';
import { readInFolder } from '../../files/open-in-folder';
import { RegularFileError } from '../../files/regular-file-error';
import type { ModelProvider } from '../../domain/model/model-provider';
import type { ToolDefinition } from '../../tools/define-tool';
import { createReplayModel } from './replay-model';
import { recordedExecutionsOf, replayRecordedTools, type RecordedExecutions } from './replay-tools';

export interface EvalReplayOptions {
  /** The evaluation's workflow id: its case runs are `${evaluationId}/${caseId}/…` (caseWorkflowId). */
  evaluationId: string;
  /** The cases that replay, each with its recording (a `run --record` JSONL file, path resolved by the caller). */
  cases: ReadonlyArray<{ id: string; recordingFile: string }>;
  /**
   * The dataset's folder (`path.dirname(dataset.file)`): every recording is read inside it, through
   * no symlink on its way. Without it, each recording's own folder (the file itself is still no symlink).
   */
  folder?: string;
}

export interface EvalReplay {
  /** Register as the worker's `replay` model provider; runs ask for `{ provider: 'replay', model: <caseId> }`. */
  provider: ModelProvider;
  /** The worker's tools, answering replayed cases' runs from their recordings and running for everyone else. */
  wrapTools(tools: readonly ToolDefinition[]): ToolDefinition[];
}

/**
 * What a worker needs to replay an evaluation's recorded cases. Every recording is read now, once
 * (opened through no symlink, size checked before a byte is read), so a missing or malformed file
 * fails before the evaluation starts rather than in its runs; errors name the file and line only.
 */
export function createEvalReplay({ evaluationId, cases, folder }: EvalReplayOptions): EvalReplay {
  const turns = new Map<string, ScriptedTurn[]>();
  const executions = new Map<string, { file: string; executions: RecordedExecutions }>();
  for (const c of cases) {
    const text = readRecording(c.recordingFile, folder);
    turns.set(c.id, recordedTurnsOf(text, c.recordingFile));
    executions.set(c.id, { file: c.recordingFile, executions: recordedExecutionsOf(text, c.recordingFile) });
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

function readRecording(file: string, folder: string | undefined): string {
  const within = folder ?? path.dirname(file);
  try {
    return readInFolder(within, path.relative(within, file), MAX_RECORDING_BYTES).toString('utf8');
  } catch (err) {
    if (err instanceof RegularFileError) throw new Error(`The recording ${file}: ${err.message}.`, { cause: err });
    throw err;
  }
}
