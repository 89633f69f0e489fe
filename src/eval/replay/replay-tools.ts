import { Context } from '@temporalio/activity';
import { issuesText, recordingLines } from '../../activities/recording';
import { canonicalJson } from '../../domain/approval/arguments-hash';
import type { ToolDefinition } from '../../tools/define-tool';
import { RecordedToolCall } from '../../tools/recorded-tools';
import { ToolError } from '../../tools/tool-error';

/** The recorded executions of one file, by tool and canonical arguments, in recorded order. */
export type RecordedExecutions = ReadonlyMap<string, readonly RecordedToolCall[]>;

const key = (tool: string, args: unknown) => `${tool}\u0000${canonicalJson(args)}`;

/**
 * A recording's tool lines (`kind: "tool"`, from `run --record`) in its text, whatever run made
 * them; a bad line is named by file and number, never quoted.
 */
export function recordedExecutionsOf(text: string, file: string): RecordedExecutions {
  const byCall = new Map<string, RecordedToolCall[]>();
  for (const { json, number } of recordingLines(text, file)) {
    if ((json as { kind?: unknown } | null)?.kind !== 'tool') continue;
    const parsed = RecordedToolCall.safeParse(json);
    if (!parsed.success) throw new Error(`${file}:${number} is not a recorded tool call (${issuesText(parsed.error)})`);
    const k = key(parsed.data.tool, parsed.data.arguments);
    byCall.set(k, [...(byCall.get(k) ?? []), parsed.data]);
  }
  return byCall;
}

/** Which recording serves the run an executing tool works for, if any (by its workflow id). */
export type RecordingOfRun = (workflowId: string) => { file: string; executions: RecordedExecutions } | undefined;

/**
 * The tools, answering a replayed case's runs from that case's recording, as `replayToolCalls`
 * does: each call takes the next recorded execution of the same tool with the same arguments and
 * returns its result or throws its error (retryable unless it was final, so a recorded retry
 * replays as one); a call the recording lacks fails for good. A tool the recording never ran runs
 * for real (the dataset's tools are deterministic), and so does every call of a run no recording
 * serves. Each run keeps its own place in the recording (a repeat starts again at the start), and
 * a call's attempt N takes the N-th execution from where the call began. A worker restarted in
 * the middle of a run forgets the earlier calls' places: a later call with the same tool and
 * arguments as an earlier one then starts again at its first execution.
 */
export function replayRecordedTools(tools: readonly ToolDefinition[], recordingOf: RecordingOfRun): ToolDefinition[] {
  /** Per run: executions taken so far by (tool, arguments), and where each call (idempotency key) began. */
  const runs = new Map<string, { used: Map<string, number>; startOf: Map<string, number> }>();
  return tools.map((tool) => ({
    ...tool,
    execute: async (args: unknown, context) => {
      const info = activityInfo();
      const recording = info && recordingOf(info.workflowId);
      const recorded = recording?.executions;
      const known = recorded && [...recorded.values()].some((list) => list[0]?.tool === tool.name);
      if (!info || !recording || !recorded || !known) return tool.execute(args as never, context);
      let run = runs.get(info.workflowId);
      if (!run) runs.set(info.workflowId, (run = { used: new Map(), startOf: new Map() }));
      const k = key(tool.name, args);
      // A call's attempt N takes the N-th execution from where the call began: a retry gets the
      // next one, an attempt asked again the same one, and a worker that restarted between
      // attempts (its memory empty) still skips the attempts made before.
      const start = run.startOf.get(context.idempotencyKey) ?? run.used.get(k) ?? 0;
      run.startOf.set(context.idempotencyKey, start);
      const index = start + info.attempt - 1;
      run.used.set(k, Math.max(run.used.get(k) ?? 0, index + 1));
      const next = recorded.get(k)?.[index];
      if (!next) {
        throw new ToolError(
          `No recorded execution of ${tool.name} with arguments ${canonicalJson(args)} is left in ${recording.file}.`,
          { retryable: false },
        );
      }
      if (next.error !== undefined) throw new ToolError(next.error, { retryable: next.final !== true });
      return next.result;
    },
  }));
}

function activityInfo(): { workflowId: string; attempt: number } | undefined {
  try {
    const { workflowExecution, attempt } = Context.current().info;
    return workflowExecution ? { workflowId: workflowExecution.workflowId, attempt } : undefined;
  } catch {
    return undefined;
  }
}
