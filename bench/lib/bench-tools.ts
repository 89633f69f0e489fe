import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../src/tools/define-tool';
import { observationText } from './observation-text';

export const BENCH_TOOL = 'bench_tool';

/**
 * The one tool every bench run calls: it returns at once, with an observation of
 * `observationChars` characters (default a few). Not read-only, so no call is answered from cache.
 * `local` runs it as a local activity.
 */
export function benchTool(observationChars = 0, options: { local?: boolean } = {}): ToolDefinition {
  return defineTool({
    name: BENCH_TOOL,
    description: 'Returns an observation at once',
    input: z.object({ n: z.number().int() }),
    local: options.local ?? false,
    execute: ({ n }) => observationText(n, observationChars),
  });
}
