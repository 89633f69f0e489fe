import fs from 'node:fs';
import { Context } from '@temporalio/activity';
import { z } from 'zod';
import { canonicalJson } from '../domain/approval/arguments-hash';
import { createRedactor } from './redact-secrets';
import type { ToolDefinition } from './define-tool';
import { ToolError } from './tool-error';

/**
 * One line of a recording: one execution of a tool (every attempt, in order), with what it
 * returned or the error it threw. Lives beside the model replies of `createReplyRecorder` in the
 * same JSONL file; `kind` tells them apart.
 */
export const RecordedToolCall = z.object({
  kind: z.literal('tool'),
  workflowId: z.string(),
  tool: z.string(),
  arguments: z.unknown(),
  result: z.unknown().optional(),
  error: z.string().optional(),
  /** The error was final (a ToolError with `retryable: false`), so the run did not retry it. */
  final: z.boolean().optional(),
});
export type RecordedToolCall = z.infer<typeof RecordedToolCall>;

/** The run an executing tool serves; `unknown` outside an activity (a direct call in a test). */
function currentWorkflowId(): string {
  try {
    return Context.current().info.workflowExecution?.workflowId ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * The tools, each appending every execution to `file`: arguments and result (or error), known
 * secrets and key-shaped strings redacted. With `workflowId`, only that run's. The tools work as
 * before; recording never changes what they return or throw.
 */
export function recordToolCalls(
  tools: readonly ToolDefinition[],
  file: string,
  options: { workflowId?: string; secrets?: readonly string[]; onRecord?: () => void } = {},
): ToolDefinition[] {
  const redact = createRedactor(options.secrets ?? []);
  const write = (line: Omit<RecordedToolCall, 'kind'>): void => {
    if (options.workflowId && line.workflowId !== options.workflowId) return;
    fs.appendFileSync(file, `${JSON.stringify(redact({ kind: 'tool', ...line }))}\n`);
    options.onRecord?.();
  };
  return tools.map((tool) => ({
    ...tool,
    execute: async (args, context) => {
      const workflowId = currentWorkflowId();
      try {
        const result: unknown = await tool.execute(args, context);
        write({ workflowId, tool: tool.name, arguments: args, result });
        return result;
      } catch (err) {
        write({
          workflowId,
          tool: tool.name,
          arguments: args,
          error: errorText(err),
          ...(ToolError.is(err) && !err.retryable ? { final: true } : {}),
        });
        throw err;
      }
    },
  }));
}

/** A replayed run asked a tool for something the recording does not hold. */
export class ToolNotRecordedError extends Error {
  override readonly name = 'ToolNotRecordedError';
}

/**
 * The tools, answering from a recording instead of running: each call takes the next recorded
 * execution of the same tool with the same arguments (canonical JSON), in order, and returns its
 * result or throws its error. Nothing else runs, so a recorded run replays offline and
 * deterministically. A call the recording lacks fails at once, non-retryably (ToolNotRecordedError
 * in `verify()` too); `verify()` also throws when recorded executions were left unused.
 */
export function replayToolCalls(
  tools: readonly ToolDefinition[],
  file: string,
  options: { workflowId?: string } = {},
): { tools: ToolDefinition[]; verify(): void } {
  const queues = new Map<string, RecordedToolCall[]>();
  const key = (tool: string, args: unknown) => `${tool}\u0000${canonicalJson(args)}`;
  for (const [i, line] of fs.readFileSync(file, 'utf8').split('\n').entries()) {
    if (line.trim() === '') continue;
    const json: unknown = JSON.parse(line);
    if ((json as { kind?: unknown }).kind !== 'tool') continue;
    const parsed = RecordedToolCall.safeParse(json);
    if (!parsed.success) throw new Error(`${file}:${i + 1} is not a recorded tool call: ${parsed.error.message}`);
    if (options.workflowId && parsed.data.workflowId !== options.workflowId) continue;
    const k = key(parsed.data.tool, parsed.data.arguments);
    queues.set(k, [...(queues.get(k) ?? []), parsed.data]);
  }
  const missing: string[] = [];
  const replayed = tools.map((tool) => ({
    ...tool,
    execute: async (args: unknown) => {
      const next = queues.get(key(tool.name, args))?.shift();
      if (!next) {
        const message = `No recorded execution of ${tool.name} with arguments ${canonicalJson(args)} is left in ${file}.`;
        missing.push(message);
        throw new ToolError(message, { retryable: false });
      }
      if (next.error !== undefined) throw new ToolError(next.error, { retryable: next.final !== true });
      return next.result;
    },
  }));
  return {
    tools: replayed,
    verify() {
      if (missing.length) throw new ToolNotRecordedError(missing[0]!);
      const left = [...queues.values()].reduce((n, q) => n + q.length, 0);
      if (left > 0)
        throw new ToolNotRecordedError(`${left} recorded tool execution(s) in ${file} were never replayed.`);
    },
  };
}
