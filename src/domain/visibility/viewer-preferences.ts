import { z } from 'zod';

/**
 * What one person chooses to see (seed 002, journey 5), stored server-side per identity. A
 * preference only narrows: it never shows more than the viewer's role allows under the policy.
 * Every field defaults to what the role's view already shows.
 */
export const ViewerPreferences = z.strictObject({
  /** Show detailed thinking steps. */
  thinking: z.boolean().default(true),
  /** Show calls to external systems (external, database, file system tools) and their results. */
  externalCalls: z.boolean().default(true),
  /** Show internal calls (skills, custom tools, model calls) and their results. */
  internalCalls: z.boolean().default(true),
  /** Show the final reasoning (synthesis) for decisions. */
  finalReasoning: z.boolean().default(true),
  /** Show progress summaries only: every step at most at summary level, and the run's progress lines. */
  summariesOnly: z.boolean().default(false),
});
export type ViewerPreferences = z.infer<typeof ViewerPreferences>;
export type ViewerPreferencesInit = z.input<typeof ViewerPreferences>;
