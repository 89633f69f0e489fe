import { z } from 'zod';
import { utf8Bytes } from './payload-size';

/**
 * What a run is given besides its goal (seed 003's `context`): structured data and named files.
 * It reaches the planner and the first prompt and is the chain's first step. Every part is
 * bounded here, so a run refuses an oversized context before it starts; a client redacts secrets
 * in it before sending (AgentClient.start), as the chain never may hold one.
 */
export const MAX_CONTEXT_FILES = 20;
/** One file's text, in UTF-8 bytes; a longer file is cut by the reader and marked `truncated`. */
export const MAX_CONTEXT_FILE_BYTES = 32 * 1024;
/** The data object, as JSON, in UTF-8 bytes. */
export const MAX_CONTEXT_DATA_BYTES = 16 * 1024;
/** Files and data together, in UTF-8 bytes: well inside one payload, carried at every handover. */
export const MAX_CONTEXT_BYTES = 160 * 1024;
export const MAX_CONTEXT_FILE_NAME_CHARS = 256;

export const ContextFile = z.object({
  /** The path as the user named it (relative to the files root), shown in the chain. */
  name: z.string().min(1).max(MAX_CONTEXT_FILE_NAME_CHARS),
  content: z.string().refine((text) => utf8Bytes(text) <= MAX_CONTEXT_FILE_BYTES, {
    message: `A context file must be at most ${MAX_CONTEXT_FILE_BYTES} bytes (UTF-8).`,
  }),
  /** The file's size on disk, in bytes. */
  bytes: z.number().int().nonnegative(),
  /** True when `content` is the file's first MAX_CONTEXT_FILE_BYTES only. */
  truncated: z.boolean().default(false),
});
export type ContextFile = z.infer<typeof ContextFile>;

export const AgentContext = z
  .object({
    /** Structured facts about the goal (a repository path, an error message…), any JSON object. */
    data: z
      .record(z.string(), z.unknown())
      .refine((data) => utf8Bytes(JSON.stringify(data) ?? '') <= MAX_CONTEXT_DATA_BYTES, {
        message: `Context data must be at most ${MAX_CONTEXT_DATA_BYTES} bytes as JSON.`,
      })
      .optional(),
    files: z
      .array(ContextFile)
      .max(MAX_CONTEXT_FILES)
      .refine((files) => new Set(files.map((f) => f.name)).size === files.length, {
        message: 'Context files must not name one file twice.',
      })
      .default([]),
  })
  .refine((c) => utf8Bytes(JSON.stringify(c) ?? '') <= MAX_CONTEXT_BYTES, {
    message: `The whole context must be at most ${MAX_CONTEXT_BYTES} bytes as JSON.`,
  });
export type AgentContext = z.infer<typeof AgentContext>;
export type AgentContextInit = z.input<typeof AgentContext>;
