import fs from 'node:fs';
import { z } from 'zod';
import { ModelReply } from '../domain';
import type { ScriptedTurn } from './models/scripted-model';
import { createRedactor } from '../tools/redact-secrets';

/** One line of a recording: a model reply of one run, as the workflow received it. */
export const RecordedReply = z.object({
  workflowId: z.string(),
  reply: ModelReply,
  /** A call beside the loop's conversation (the planner's: isSideCall); a replayed evaluation answers such calls from these lines. */
  side: z.boolean().optional(),
});
export type RecordedReply = z.infer<typeof RecordedReply>;

/**
 * Appends the model replies of one run (or of every run, when `workflowId` is omitted) to a JSONL
 * file. Replies only: no prompts, no tool results; known secrets and key-shaped strings redacted.
 */
export function createReplyRecorder(file: string, options: { workflowId?: string; secrets?: readonly string[] } = {}) {
  const redact = createRedactor(options.secrets ?? []);
  return (workflowId: string, reply: ModelReply, call?: { side: boolean }): void => {
    if (options.workflowId && workflowId !== options.workflowId) return;
    const line: RecordedReply = {
      workflowId,
      reply: redact(reply) as ModelReply,
      ...(call?.side ? { side: true } : {}),
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
}

/** The recorded replies as a script for `createScriptedModel`, so a real session becomes a test. */
export function loadRecordedTurns(file: string, workflowId?: string): ScriptedTurn[] {
  return (
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => ({ line, number: i + 1 }))
      .filter(({ line }) => line.trim() !== '')
      .map(({ line, number }) => ({ json: JSON.parse(line) as unknown, number }))
      // Tool executions share the file (`recordToolCalls`); they are replayed by `replayToolCalls`.
      .filter(({ json }) => (json as { kind?: unknown }).kind !== 'tool')
      .map(({ json, number }) => {
        const parsed = RecordedReply.safeParse(json);
        if (!parsed.success) throw new Error(`${file}:${number} is not a recorded reply: ${parsed.error.message}`);
        return parsed.data;
      })
      .filter((r) => !workflowId || r.workflowId === workflowId)
      .map(({ reply, side }) => ({
        ...(side ? { side } : {}),
        content: reply.content,
        stopReason: reply.stopReason,
        usage: reply.usage,
        costUsd: reply.costUsd,
      }))
  );
}
