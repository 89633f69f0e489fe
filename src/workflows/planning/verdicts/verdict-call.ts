import { replyText } from '../../core/model-exchange';
import type { RunContext } from '../../core/state/run-context';
import { recordedModelCall } from '../../model/model-call';

/** Room for a verdict's JSON: a few short sentences. */
const VERDICT_MAX_TOKENS = 1_024;

/**
 * One model call without tools for a verdict (the observer, the goal check): the run's own model,
 * a visible `llm` step on the run's budget (BudgetExhausted when it cannot be afforded), one
 * model activity. Throws ModelCallFailed when the model fails for good.
 */
export async function askForVerdict(ctx: RunContext, system: string, prompt: string, note: string): Promise<string> {
  const { provider, model, maxTokens, price } = ctx.input.model;
  const { reply } = await recordedModelCall(ctx, {
    candidate: { provider, model, maxTokens, price },
    system,
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    tools: [],
    toolChoice: 'none',
    maxTokens: Math.min(maxTokens, VERDICT_MAX_TOKENS),
    note,
    purpose: 'verdict',
  });
  return replyText(reply);
}
