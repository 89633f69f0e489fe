import { z } from 'zod';
import { utf8Bytes } from '../domain/run/payload-size';
import { MAX_CONTEXT, MAX_RUN_ID_CHARS, MAX_TASK } from './mcp-limits';

/** What an agent tool takes: the task, and optional structured context (the run's context data). */
export const AgentToolInput = z
  .object({
    task: z
      .string()
      .min(1, { message: 'task must not be empty.' })
      .refine((t) => utf8Bytes(t) <= MAX_TASK, { message: `task must be at most ${MAX_TASK} bytes (UTF-8).` }),
    context: z
      .record(z.string(), z.unknown())
      .refine((c) => utf8Bytes(JSON.stringify(c) ?? '') <= MAX_CONTEXT, {
        message: `context must be at most ${MAX_CONTEXT} bytes as JSON.`,
      })
      .optional(),
  })
  .strict();
export type AgentToolInput = z.infer<typeof AgentToolInput>;

/** `AgentToolInput` as the JSON Schema `tools/list` shows. */
export const AGENT_TOOL_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    task: { type: 'string', minLength: 1, description: 'What the agent should do, in plain words.' },
    context: {
      type: 'object',
      description: `Structured facts the task comes with (any JSON object, at most ${MAX_CONTEXT} bytes).`,
    },
  },
  required: ['task'],
  additionalProperties: false,
} as const;

/** What `get_run` takes. */
export const GetRunInput = z.object({ runId: z.string().min(1).max(MAX_RUN_ID_CHARS) }).strict();

export const GET_RUN_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    runId: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_RUN_ID_CHARS,
      description: 'The run id an agent call named.',
    },
  },
  required: ['runId'],
  additionalProperties: false,
} as const;

/** The first issue of a failed parse, as one sentence for an error result. */
export const issueText = (error: z.ZodError): string =>
  error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
