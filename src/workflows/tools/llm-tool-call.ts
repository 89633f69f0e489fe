import { ApplicationFailure } from '@temporalio/workflow';
import {
  LlmAnswer,
  type ModelMessage,
  type SubBudget,
  type ToolOutput,
  type ToolResult,
  type ToolSpec,
} from '../../shared';
import { FailureType } from '../../shared/failure-types';
import type { ModelMeta } from '../core/chain-builder';
import type { Observation } from '../core/model-exchange';
import type { RunContext } from '../core/run-context';
import { affordableMaxTokens, estimateInputTokens } from '../model/budget';
import { ensureTenantTokens } from '../tenant-quota/tenant-tokens';

/** Used when the tool's schema names no ceiling for `maxTokens`. */
const FALLBACK_MAX_TOKENS = 4_096;
/** Room for the envelope (model, usage, cost) around the answer. */
const ENVELOPE_CHARS = 2_000;

export interface AffordedLlmCall {
  /** The arguments to send: `maxTokens` lowered when the budget allows less than asked. */
  args: Record<string, unknown>;
  /** Held against the budget while the call runs, so concurrent calls cannot overspend together; release it after. */
  hold: Pick<SubBudget, 'tokenBudget'>;
}

/**
 * The budget check of one `llm` tool call, as for the run's own model calls: throws
 * BudgetExhausted when even a short answer would cross the token or cost budget (nothing is
 * called), else lowers `maxTokens` to what the budget affords. The answering model's price is not
 * known here (the worker's registry holds it), so the cost budget is checked against what is
 * already spent; the answer's cost joins the ledger as soon as it is in.
 */
export async function affordLlmCall(
  ctx: RunContext,
  spec: ToolSpec,
  args: Record<string, unknown>,
): Promise<AffordedLlmCall> {
  const { input, state } = ctx;
  const ceiling = maxTokensCeiling(spec);
  const asked = typeof args['maxTokens'] === 'number' ? args['maxTokens'] : ceiling;
  const messages: ModelMessage[] = [
    { role: 'user', content: [{ type: 'text', text: typeof args['prompt'] === 'string' ? args['prompt'] : '' }] },
  ];
  const call = {
    system: typeof args['system'] === 'string' ? args['system'] : '',
    messages,
    tools: [],
    maxTokens: asked,
    price: undefined,
  };
  const inputTokens = estimateInputTokens(call);
  const maxTokens = affordableMaxTokens(state.committed(), input, call, inputTokens);
  const tokens = inputTokens + maxTokens;
  await ensureTenantTokens(ctx, tokens);
  const hold = { tokenBudget: tokens };
  state.reserve(hold);
  return { args: maxTokens < asked ? { ...args, maxTokens } : args, hold };
}

/** What the activity may return: the tool's own cut answer in its envelope, JSON-escaped (up to twice as long). */
export function llmResultRoom(spec: ToolSpec, limit: number): number {
  return Math.max(limit, 2 * (spec.maxResultChars ?? limit)) + ENVELOPE_CHARS;
}

/**
 * Reads an `llm` tool's answer, counts its spend into the run's ledger, and cuts the answer to
 * the call's limit. A result that is not an LlmAnswer fails closed (ToolResultUnusable): a model
 * call whose cost cannot be counted is not used.
 */
export function takeLlmAnswer(
  ctx: RunContext,
  callId: string,
  out: ToolOutput,
  limit: number,
): { shown: ToolResult; meta: ModelMeta; observation: Observation } {
  const parsed = LlmAnswer.safeParse(out.result);
  if (!parsed.success) {
    throw ApplicationFailure.create({
      type: FailureType.ToolResultUnusable,
      message: 'The llm tool did not report the model, tokens and cost of its answer, so it is not used.',
      nonRetryable: true,
    });
  }
  const answer = parsed.data;
  ctx.state.countToolSpend(answer);
  const cut = answer.answer.length > limit;
  const text = cut
    ? `${answer.answer.slice(0, limit)}\n…[truncated: showing ${limit} of ${answer.answer.length} characters]`
    : answer.answer;
  const hitMaxTokens =
    answer.stopReason === 'max_tokens' ? '\n…[the answer reached its maxTokens and may be incomplete]' : '';
  const shown: ToolResult = {
    correlationId: callId,
    success: true,
    result: cut ? answer.answer.slice(0, limit) : answer.answer,
    durationMs: out.durationMs,
    ...(out.attempts ? { attempts: out.attempts } : {}),
    ...(cut || answer.truncated ? { truncated: true } : {}),
  };
  return {
    shown,
    meta: { model: answer.model, usage: answer.usage, costUsd: answer.costUsd },
    observation: { callId, content: text + hitMaxTokens, isError: false },
  };
}

/** The `maximum` of `maxTokens` in the tool's JSON Schema, the most a call may ask for. */
function maxTokensCeiling(spec: ToolSpec): number {
  const properties = spec.inputSchema['properties'];
  const maxTokens =
    properties !== null && typeof properties === 'object'
      ? (properties as Record<string, unknown>)['maxTokens']
      : undefined;
  const maximum =
    maxTokens !== null && typeof maxTokens === 'object' ? (maxTokens as Record<string, unknown>)['maximum'] : undefined;
  return typeof maximum === 'number' && Number.isInteger(maximum) && maximum > 0 ? maximum : FALLBACK_MAX_TOKENS;
}
