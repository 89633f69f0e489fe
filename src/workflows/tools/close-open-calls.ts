import type { ChainBuilder } from '../core/chain/chain-builder';

/**
 * After cancellation or the run's timeout, every call still open in the chain gets a result saying
 * what happened: a model call was cancelled; a call still waiting for approval never ran; any
 * other tool may or may not have run.
 */
export function closeOpenCalls(chain: ChainBuilder, why: string): void {
  const open = new Map(
    chain.steps.flatMap((s) => (s.type === 'tool_call' ? [[s.toolCall.correlationId, s] as const] : [])),
  );
  for (const s of chain.steps) if (s.type === 'tool_result') open.delete(s.toolResult.correlationId);
  const awaitingApproval = new Set(chain.approvals.filter((r) => r.status === 'pending').map((r) => r.callId));
  for (const step of open.values()) {
    const llm = step.toolCall.toolType === 'llm';
    const neverRan = !llm && awaitingApproval.has(step.toolCall.correlationId);
    const error = llm
      ? `Model call cancelled: ${why}`
      : neverRan
        ? `Never ran: the call was still waiting for approval when the run ended. ${why}`
        : `Interrupted (${why}) while running; it may or may not have taken effect.`;
    chain.toolResult(
      {
        correlationId: step.toolCall.correlationId,
        success: false,
        result: null,
        error,
        durationMs: 0,
        outcome: llm ? 'cancelled' : neverRan ? 'not_run' : 'unknown',
      },
      step.visibility,
      ...(step.model ? [{ model: step.model }] : []),
    );
  }
}
