import type { ModelMessage } from '../../domain';
import {
  boundedContextSummary,
  contextSummaryPrompt,
  contextSummarySystem,
  type ContextSummarySettings,
} from '../../domain/model/context-summary';
import { replyText } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import { recordedModelCall } from './model-call';

/**
 * Summarises the turns compaction is about to drop, with the summary an earlier compaction left,
 * in one model call (a visible `llm` step with purpose `compaction`, on the run's budget). Returns
 * the summary redacted and at most `limitChars`, or undefined when the reply is empty. Throws what
 * recordedModelCall throws (BudgetExhausted, ModelCallFailed): the caller falls back to a note.
 */
export async function summariseTurns(
  ctx: RunContext,
  settings: ContextSummarySettings,
  previous: string | undefined,
  dropped: readonly ModelMessage[],
  limitChars: number,
): Promise<string | undefined> {
  const { input } = ctx;
  const chosen = settings.model ?? input.model;
  const maxTokens = Math.max(256, Math.ceil(limitChars / 3));
  const { reply } = await recordedModelCall(ctx, {
    candidate: {
      provider: chosen.provider,
      model: chosen.model,
      maxTokens,
      price: chosen.price,
      // The run's own model keeps its registry entries; another model is called as named.
      ...(settings.model ? {} : { sampling: input.model.sampling, endpoints: input.model.endpoints }),
    },
    system: contextSummarySystem(),
    messages: [
      {
        role: 'user',
        content: [{ type: 'text', text: contextSummaryPrompt(input.task, previous, dropped, limitChars) }],
      },
    ],
    tools: [],
    toolChoice: 'none',
    maxTokens,
    note: `summarising ${dropped.length / 2} earlier turns before they leave the context`,
    purpose: 'compaction',
  });
  return boundedContextSummary(replyText(reply), limitChars);
}
