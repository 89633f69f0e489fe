import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentResult, AgentStatus } from '../domain';
import type { RunEnding } from '../domain/run/run-ending';
import { redactSecrets } from '../domain/secrets/secret-patterns';
import { cutText, MAX_ANSWER_CHARS } from './mcp-limits';
import { counted } from '../domain/text/counted';

/** Where a run's whole chain is read: `serve`'s API path, and this server's resource. */
export const chainLink = (runId: string): string => `/v1/runs/${encodeURIComponent(runId)}/chain`;
export const runResourceUri = (runId: string): string => `thoughtline://runs/${encodeURIComponent(runId)}`;

const text = (value: string): string => String(redactSecrets(value, []));

/**
 * An ended run as a tool result, from its ending (runEnding, of the result in the caller's view
 * and lens): a success is its answer; any other ending says how the run ended (the summary, the
 * whole error when the summary holds only its first line) after the answer it gave, if any. A
 * run that failed or timed out (tone `bad`) is an error result; a cancelled or terminated one and
 * a stop at a limit are not (their partial answer is the text). The answer is cut with a note; the
 * structured content carries the ending (without the answer) for a program.
 */
export function resultContent(runId: string, ending: RunEnding, result?: AgentResult): CallToolResult {
  const failed = ending.tone === 'bad';
  const answer =
    ending.answer && !(failed && ending.terminationReason === 'failure')
      ? cutText(text(ending.answer), MAX_ANSWER_CHARS, `the run's chain (${chainLink(runId)})`)
      : undefined;
  const lines =
    ending.terminationReason === 'success' && answer !== undefined ? [answer] : endedLines(runId, ending, answer);
  const { answer: _answer, ...shown } = ending;
  return {
    content: [{ type: 'text', text: lines.join('\n\n') }],
    structuredContent: {
      runId,
      state: ending.state,
      success: ending.terminationReason === 'success',
      ...(ending.terminationReason ? { terminationReason: ending.terminationReason } : {}),
      ending: shown,
      ...(result ? { costUsd: result.costUsd, usage: result.usage } : {}),
      chain: chainLink(runId),
      resource: runResourceUri(runId),
    },
    ...(failed ? { isError: true } : {}),
  };
}

/** The text of an ending other than a success with its answer: the answer first, then how the run ended. */
function endedLines(runId: string, ending: RunEnding, answer: string | undefined): string[] {
  const error =
    ending.error && !ending.summary.endsWith(ending.error) ? [cutText(text(ending.error), 2_000, 'its chain')] : [];
  const ended = `[run ${runId} ended ${text(ending.summary)}${answer ? ` · ${ending.answerTitle}` : ''}]`;
  if (answer) return [answer, ended, ...error];
  return [`${ended} It gave no answer; its chain: ${chainLink(runId)}.`, ...error];
}

/** A run still going, as a tool result: what it does now and what it waits for. */
export function statusContent(runId: string, status: AgentStatus): CallToolResult {
  const waits = [
    ...status.pendingApprovals.map((a) => `approval of ${a.toolName} (call ${a.callId})`),
    ...(status.openQuestion ? [`an answer to: ${text(status.openQuestion.question)}`] : []),
  ];
  const line = `Run ${runId} is running (${counted(status.steps, 'step')}${status.lastStep ? `, last: ${text(status.lastStep).slice(0, 200)}` : ''})${waits.length > 0 ? `; it waits for ${waits.join(', ')}` : ''}. Call get_run again for its answer once it ends.`;
  return {
    content: [{ type: 'text', text: line }],
    structuredContent: {
      runId,
      state: 'running',
      steps: status.steps,
      costUsd: status.costUsd,
      usage: status.usage,
      pendingApprovals: status.pendingApprovals.map((a) => ({ callId: a.callId, toolName: a.toolName })),
      ...(status.openQuestion ? { openQuestion: text(status.openQuestion.question) } : {}),
      chain: chainLink(runId),
    },
  };
}

/** A tool result for a refusal (bad input, unknown run, a conflict): said plainly, never a crash. */
export const errorContent = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: text(message) }],
  isError: true,
});
