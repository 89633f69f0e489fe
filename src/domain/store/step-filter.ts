import { z } from 'zod';

export const StepTypeName = z.enum(['thinking', 'tool_call', 'tool_result', 'synthesis']);

/** Longest text a search or filter matches on; longer needles are refused, not cut. */
export const MAX_SEARCH_TEXT = 200;

/**
 * Narrows one chain's steps: any of `types`, a tool by name (its call and its result), a time
 * range on the step's timestamp (ISO, inclusive), and a case-insensitive substring of the step's
 * text (thought, arguments, result, error, conclusion) as the caller's view shows it.
 */
export const StepFilter = z
  .object({
    types: z.array(StepTypeName).min(1).max(4).optional(),
    tool: z.string().min(1).max(200).optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    text: z.string().min(1).max(MAX_SEARCH_TEXT).optional(),
  })
  .strict();
export type StepFilter = z.infer<typeof StepFilter>;
