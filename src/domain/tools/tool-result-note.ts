import type { ToolResult } from '../chain/chain';

/** "3.1 s" from 3_100 ms; under a second in ms. */
const seconds = (ms: number): string => (ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`);

/**
 * What a tool result's line adds in parentheses, or undefined: `cached` for a reused observation
 * (no tool ran), `3 attempts, 3.1 s` for a call the tool retried. Pure, for every renderer.
 */
export function toolResultNote(result: ToolResult): string | undefined {
  if (result.cachedFrom !== undefined) return 'cached';
  if (result.attempts !== undefined && result.attempts > 1)
    return `${result.attempts} attempts, ${seconds(result.durationMs)}`;
  return undefined;
}
