import type { LogEntry } from '@temporalio/worker';
import { terminalSafe } from '../render/terminal-safe';

/** Longest text of one warning line; the rest of a long failure message is cut. */
const MAX_LINE_CHARS = 400;

/**
 * One line for a worker warning in the terminal: the SDK's default prints the whole failure with
 * its stack for every failed activity attempt, and a failing tool is a routine observation here
 * (an evaluation of failure cases printed sixty lines of stacks around its progress). The line
 * keeps what a person acts on: which activity, which attempt, why.
 */
export function terseLogEntry({ level, message, meta }: LogEntry): string {
  const m = (meta ?? {}) as { activityType?: unknown; attempt?: unknown; error?: unknown; workflowId?: unknown };
  const what = [
    typeof m.activityType === 'string' ? m.activityType : undefined,
    typeof m.attempt === 'number' ? `attempt ${m.attempt}` : undefined,
    typeof m.workflowId === 'string' ? m.workflowId : undefined,
  ].filter(Boolean);
  const error = m.error instanceof Error ? m.error.message : typeof m.error === 'string' ? m.error : undefined;
  const line = `[${level}] ${message}${what.length ? ` (${what.join(', ')})` : ''}${error ? `: ${error}` : ''}`;
  const cut = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
  return terminalSafe(cut.replace(/[\r\n]+/g, ' '));
}
