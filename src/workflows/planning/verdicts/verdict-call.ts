import { replyText } from '../../core/model-exchange';
import type { RunContext } from '../../core/state/run-context';
import { recordedModelCall, type Candidate } from '../../model/model-call';

/** Room for a verdict's JSON: a few short sentences. */
const VERDICT_MAX_TOKENS = 1_024;

/**
 * One model call without tools for a verdict (the observer, the goal check, the claim judge): the
 * run's own model unless `judge` names another, a visible `llm` step on the run's budget
 * (BudgetExhausted when it cannot be afforded), one model activity. Throws ModelCallFailed when
 * the model fails for good.
 */
export async function askForVerdict(
  ctx: RunContext,
  system: string,
  prompt: string,
  note: string,
  judge?: Candidate,
): Promise<string> {
  const { provider, model, maxTokens, price } = ctx.input.model;
  const candidate = judge ?? { provider, model, maxTokens, price };
  const { reply } = await recordedModelCall(ctx, {
    candidate,
    system,
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    tools: [],
    toolChoice: 'none',
    maxTokens: Math.min(candidate.maxTokens, VERDICT_MAX_TOKENS),
    note,
    purpose: 'verdict',
  });
  return replyText(reply);
}
