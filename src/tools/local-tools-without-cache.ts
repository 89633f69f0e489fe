import type { ToolDefinition } from './define-tool';

/**
 * Why a worker's local tools may stall, or undefined when they will not. Without a workflow cache
 * (`maxCachedWorkflows: 0`) Temporal's core evicts a run after every task it completes, and may
 * pick another run whose local activity is still running: that run's workflow task times out
 * (10 s) and runs again. The SDK's default cache does not do this.
 */
export function localToolsWithoutCache(
  tools: readonly ToolDefinition[],
  maxCachedWorkflows: number | undefined,
): string | undefined {
  if (maxCachedWorkflows !== 0) return undefined;
  const local = tools.filter((t) => t.local).map((t) => t.name);
  if (local.length === 0) return undefined;
  return `Local tools (${local.join(', ')}) on a worker with maxCachedWorkflows: 0: Temporal's core may evict a run while its local activity runs, and the run's workflow task then times out (10 s) and runs again. Keep a workflow cache (the SDK's default) on workers with local tools.`;
}
