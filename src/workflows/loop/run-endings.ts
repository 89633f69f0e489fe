import type { ChainBuilder } from '../core/chain-builder';

/**
 * After cancellation or the run's timeout, every call still open in the chain gets a result saying
 * what happened: a model call was cancelled; a tool may or may not have run.
 */
export function closeOpenCalls(chain: ChainBuilder, why: string): void {
  const open = new Map(chain.steps.flatMap((s) => (s.type === 'tool_call' ? [[s.toolCall.correlationId, s] as const] : [])));
  for (const s of chain.steps) if (s.type === 'tool_result') open.delete(s.toolResult.correlationId);
  for (const step of open.values()) {
    if (step.type !== 'tool_call') continue;
    const llm = step.toolCall.toolType === 'llm';
    chain.toolResult(
      {
        correlationId: step.toolCall.correlationId,
        success: false,
        result: null,
        error: llm ? `Model call cancelled: ${why}` : `Interrupted (${why}) while running; it may or may not have taken effect.`,
        durationMs: 0,
        outcome: llm ? 'cancelled' : 'unknown',
      },
      step.visibility,
      ...(step.model ? [{ model: step.model }] : []),
    );
  }
}

/** Written without a model, so a failed summary call still leaves the partial results in view. */
export function summaryWithoutModel(chain: ChainBuilder, iteration: number, why: string): string {
  const lines = chain.steps.flatMap((s) =>
    s.type === 'tool_result' && s.model === undefined && s.toolResult.success ? [`- ${JSON.stringify(s.toolResult.result).slice(0, 300)}`] : [],
  );
  return [`Stopped after ${iteration} iterations without a final answer. ${why}`, 'Results gathered so far:', ...(lines.length ? lines : ['- (none)'])].join('\n');
}
