import { z } from 'zod';
import type { VisibilityLevel } from '../../src/domain';
import { defineTool } from '../../src/tools/define-tool';

/**
 * A `scan` tool of the progress tests: once `ready` resolves, it reports `updates` steps of
 * progress `gapMs` apart ("<name> scanned 100 files with <secret>", fraction i/updates, data { i }),
 * then returns how many files it scanned.
 */
export function scanningTool(
  name: string,
  visibility: VisibilityLevel,
  options: { secret: string; updates: number; gapMs: number; ready?: Promise<void> },
) {
  const { secret, updates, gapMs, ready } = options;
  return defineTool({
    name,
    description: 'scans files',
    input: z.object({}),
    visibility,
    timeoutMs: 60_000,
    execute: async (_args, ctx) => {
      await ready;
      for (let i = 1; i <= updates; i += 1) {
        ctx.progress({
          message: `${name} scanned ${i * 100} files with ${secret}`,
          fraction: i / updates,
          data: { i },
        });
        await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
      return { files: updates * 100 };
    },
  });
}
