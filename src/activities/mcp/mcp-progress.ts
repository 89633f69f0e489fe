import type { ToolProgressUpdate } from '../../domain/tools/tool-progress';

/** An MCP `notifications/progress` as the SDK hands it: a count, maybe a total, maybe a line. */
export interface McpProgressNotice {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/**
 * A server's progress notice as a tool's progress update (`ctx.progress`): its line, else "3 of
 * 10" (or "3" without a total), and the fraction done when the total is known. The reporter
 * bounds, redacts and throttles it like any tool's.
 */
export function mcpProgressUpdate({ progress, total, message }: McpProgressNotice): ToolProgressUpdate {
  const known = typeof total === 'number' && total > 0 && Number.isFinite(progress);
  const line =
    typeof message === 'string' && message.trim() ? message : known ? `${progress} of ${total}` : `${progress}`;
  return known ? { message: line, fraction: progress / total } : { message: line };
}
