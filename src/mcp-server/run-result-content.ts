import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentResult, AgentStatus } from '../shared';
import { redactSecrets } from '../shared/secret-patterns';
import { cutText, MAX_ANSWER_CHARS } from './mcp-limits';
import { counted } from '../shared/counted';

/** Where a run's whole chain is read: `serve`'s API path, and this server's resource. */
export const chainLink = (runId: string): string => `/v1/runs/${encodeURIComponent(runId)}/chain`;
export const runResourceUri = (runId: string): string => `thoughtline://runs/${encodeURIComponent(runId)}`;

const text = (value: string): string => String(redactSecrets(value, []));

/**
 * An ended run as a tool result: the answer (redacted, cut with a note) first, and structured
 * content a program reads. A run that did not succeed is an error result, with its reason.
 */
export function resultContent(runId: string, result: AgentResult): CallToolResult {
  const answer = cutText(text(result.finalAnswer), MAX_ANSWER_CHARS, `the run's chain (${chainLink(runId)})`);
  const why = result.success
    ? ''
    : `\n\n[run ${runId} ended ${result.terminationReason}${result.error ? `: ${cutText(text(result.error), 2_000, 'its chain')}` : ''}]`;
  return {
    content: [{ type: 'text', text: `${answer}${why}` }],
    structuredContent: {
      runId,
      success: result.success,
      terminationReason: result.terminationReason,
      costUsd: result.costUsd,
      usage: result.usage,
      chain: chainLink(runId),
      resource: runResourceUri(runId),
    },
    ...(result.success ? {} : { isError: true }),
  };
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
