import fs from 'node:fs';
import { z } from 'zod';
import { ModelReply } from '../domain';
import { jsonSyntaxProblem } from '../files/json-syntax-problem';
import { readRegularFile } from '../files/read-regular-file';
import { RegularFileError } from '../files/regular-file-error';
import type { ScriptedTurn } from './models/scripted-model';
import { createRedactor } from '../tools/redact-secrets';

/**
 * The model named by a reply that no model produced: a line written by hand (a test's or an
 * evaluation case's). Such a line carries no usage or duration, since none was measured, and a
 * cost only where the case is about one (a cost budget); replayed, the missing figures are zero.
 */
export const HAND_WRITTEN_MODEL = 'hand-written';

/**
 * One line of a recording: a model reply of one run, as the workflow received it (`run --record`
 * writes every field). Usage, cost and duration may be left out by a line written by hand.
 */
export const RecordedReply = z.object({
  workflowId: z.string(),
  reply: ModelReply.extend({
    usage: ModelReply.shape.usage.optional(),
    costUsd: ModelReply.shape.costUsd.optional(),
    durationMs: ModelReply.shape.durationMs.optional(),
  }),
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

/** Largest recording read (a `run --record` file, a dataset case's replay). */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;

/**
 * The recorded replies of a file as a script for `createScriptedModel`, so a real session becomes
 * a test: a regular file of at most MAX_RECORDING_BYTES (symlinks followed: the caller named it).
 */
export function loadRecordedTurns(file: string, workflowId?: string): ScriptedTurn[] {
  let text: string;
  try {
    text = readRegularFile(file, MAX_RECORDING_BYTES).toString('utf8');
  } catch (err) {
    if (err instanceof RegularFileError) throw new Error(`The recording ${file}: ${err.message}.`, { cause: err });
    throw err;
  }
  return recordedTurnsOf(text, file, workflowId);
}

/**
 * The recorded replies in a recording's text (tool lines skipped: `replayToolCalls` replays them).
 * A bad line is named by file and line number and what was wrong, never quoted: the file may not
 * be a recording at all.
 */
export function recordedTurnsOf(text: string, file: string, workflowId?: string): ScriptedTurn[] {
  return recordingLines(text, file)
    .filter(({ json }) => (json as { kind?: unknown } | null)?.kind !== 'tool')
    .map(({ json, number }) => {
      const parsed = RecordedReply.safeParse(json);
      if (!parsed.success) throw new Error(`${file}:${number} is not a recorded reply (${issuesText(parsed.error)})`);
      return parsed.data;
    })
    .filter((r) => !workflowId || r.workflowId === workflowId)
    .map(({ reply, side }) => ({
      ...(side ? { side } : {}),
      content: reply.content,
      stopReason: reply.stopReason,
      usage: reply.usage,
      costUsd: reply.costUsd,
    }));
}

/** A recording's non-blank lines parsed as JSON, with their numbers; a line that does not parse throws, unquoted. */
export function recordingLines(text: string, file: string): Array<{ json: unknown; number: number }> {
  return text.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    try {
      return [{ json: JSON.parse(line) as unknown, number: i + 1 }];
    } catch (err) {
      throw new Error(`${file}:${i + 1} is ${jsonSyntaxProblem(err)}`);
    }
  });
}

/** A schema's issues as `field: code`, without zod's messages (some quote the values they met). */
export function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || 'the line'}: ${i.code}`)
    .join('; ');
}
