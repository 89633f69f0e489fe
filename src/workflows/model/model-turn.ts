import { isCancellation } from '@temporalio/workflow';
import type { AgentInput, FallbackModel, ModelMessage, ModelReply, ModelTool } from '../../shared';
import { priceFor } from '../../shared/pricing';
import { activities, modelCallOptions } from '../activity-proxies';
import { affordableMaxTokens, BudgetExhausted, estimateInputTokens } from './budget';
import type { ChainBuilder } from '../core/chain-builder';
import { replyText } from '../loop/decide-next-step';
import { failureMessage } from '../core/failure-message';
import type { RunState } from '../core/run-state';
import { ensureTenantTokens } from '../tenant-quota/tenant-tokens';
import type { Strategy } from '../loop/strategies';

/** Raised when every model (the primary and its fallbacks) failed for good. */
export class ModelCallFailed {
  constructor(readonly message: string) {}
}

/** A reply cut at max_tokens is retried with this many times the room, doubling, at most. */
const MAX_TOKENS_GROWTH = 4;
/** Bound on `pause_turn` continuations within one turn, so a looping server cannot spin us. */
const MAX_PAUSE_CONTINUATIONS = 5;

export type Candidate = Required<Omit<FallbackModel, 'maxTokens' | 'price'>> & Pick<FallbackModel, 'price'> & { maxTokens: number };

/**
 * One model turn as the loop sees it: a usable reply, after whatever it took. Every attempt is
 * a visible pair of `llm` steps; the arguments say why an attempt was made (`note`).
 *  - fallback models take over, in order, once a model has failed for good;
 *  - `max_tokens`: the cut reply is dropped (its tool input may be truncated) and the call is
 *    made again with twice the room, up to 4x; past that the cut reply is returned;
 *  - `pause_turn`: the partial reply joins the conversation and the call continues it;
 *  - `model_context_window_exceeded`: older tool results are elided, then one retry.
 * Before every attempt the budget ledger must afford it (else BudgetExhausted, nothing called);
 * `max_tokens` is lowered to what the budgets leave.
 */
export async function modelTurn(
  input: AgentInput,
  strategy: Strategy,
  state: RunState,
  chain: ChainBuilder,
  toolChoice: 'auto' | 'none',
  onReply: () => void,
): Promise<ModelReply> {
  const candidates: Candidate[] = [input.model, ...input.model.fallbacks].map((m) => ({
    provider: m.provider,
    model: m.model,
    maxTokens: m.maxTokens ?? input.model.maxTokens,
    price: m.price,
  }));
  let note: string | undefined;
  for (const [index, candidate] of candidates.entries()) {
    try {
      return await turnOnOneModel(candidate, note);
    } catch (err) {
      if (!(err instanceof ModelCallFailed) || index === candidates.length - 1) throw err;
      note = `fallback from ${candidate.model} after: ${err.message}`;
    }
  }
  throw new ModelCallFailed('no model to call');

  async function turnOnOneModel(candidate: Candidate, firstNote: string | undefined): Promise<ModelReply> {
    let maxTokens = candidate.maxTokens;
    let compacted = false;
    let pauses = 0;
    let why = firstNote;
    for (;;) {
      const { reply, capped } = await callOnce(candidate, maxTokens, why);
      if (reply.stopReason === 'max_tokens' && capped) {
        const reason = input.tokenBudget !== undefined ? 'token_budget' : 'cost_budget';
        throw new BudgetExhausted(reason, `The reply was cut at max_tokens, lowered to ${capped} by the budget; more room would cross it.`);
      }
      if (reply.stopReason === 'max_tokens' && maxTokens * 2 <= candidate.maxTokens * MAX_TOKENS_GROWTH) {
        maxTokens *= 2;
        why = `previous reply was cut at max_tokens; retrying with ${maxTokens}`;
        continue;
      }
      if (reply.stopReason === 'model_context_window_exceeded' && !compacted) {
        compacted = true;
        why = `context window exceeded; elided ${state.compact()} older tool results`;
        continue;
      }
      state.messages.push({ role: 'assistant', content: reply.content });
      if (reply.stopReason === 'pause_turn' && pauses < MAX_PAUSE_CONTINUATIONS) {
        pauses += 1;
        why = 'continuing a paused turn';
        continue;
      }
      return reply;
    }
  }

  function callOnce(candidate: Candidate, wanted: number, note: string | undefined): Promise<RecordedReply> {
    return recordedModelCall(input, state, chain, {
      candidate,
      system: strategy.system,
      messages: state.messages,
      tools: strategy.tools,
      toolChoice,
      maxTokens: wanted,
      ...(strategy.stopSequences ? { stopSequences: strategy.stopSequences } : {}),
      ...(note ? { note } : {}),
      onReply,
    });
  }
}

export interface RecordedReply {
  reply: ModelReply;
  /** The lowered max_tokens, when the budget allowed less than asked. */
  capped?: number;
}

export interface ModelCallPlan {
  candidate: Candidate;
  system: string;
  messages: ModelMessage[];
  tools: ModelTool[];
  toolChoice: 'auto' | 'none';
  maxTokens: number;
  stopSequences?: string[];
  /** Why this call is made, shown in the chain (a retry, a fallback, a summary). */
  note?: string;
  onReply?: () => void;
}

/**
 * One model call as a visible pair of `llm` steps, paid for by the run's ledger: the budget must
 * afford it first (else BudgetExhausted, nothing called). Failures become ModelCallFailed;
 * cancellation propagates untouched.
 */
export async function recordedModelCall(input: AgentInput, state: RunState, chain: ChainBuilder, plan: ModelCallPlan): Promise<RecordedReply> {
  const { candidate } = plan;
  const price = candidate.price ?? priceFor(candidate.model);
  const maxTokens = affordableMaxTokens(state.committed(), input, { ...plan, price });
  await ensureTenantTokens(input, state, estimateInputTokens(plan) + maxTokens);
  const correlationId = chain.newId();
  const visibility = { level: input.visibility };
  chain.toolCall(
    {
      toolType: 'llm',
      toolName: candidate.model,
      arguments: {
        provider: candidate.provider,
        maxTokens,
        messages: plan.messages.length,
        tools: plan.tools.map((t) => t.name),
        toolChoice: plan.toolChoice,
        ...(plan.note ? { note: plan.note } : {}),
      },
      correlationId,
    },
    visibility,
    { model: candidate.model },
  );
  state.modelCalls += 1;
  try {
    const reply = await activities.callModel.executeWithOptions(modelCallOptions(input.model, `${candidate.model} · iteration ${state.iteration}`), [
      {
        provider: candidate.provider,
        model: candidate.model,
        system: plan.system,
        messages: plan.messages,
        tools: plan.tools,
        toolChoice: plan.toolChoice,
        maxTokens,
        ...(plan.stopSequences ? { stopSequences: plan.stopSequences } : {}),
      },
    ]);
    state.countReply(reply);
    const toolUses = reply.content.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name }));
    chain.toolResult(
      { correlationId, success: true, result: { stopReason: reply.stopReason, text: replyText(reply), toolCalls: toolUses }, durationMs: reply.durationMs },
      visibility,
      { model: reply.model, usage: reply.usage, costUsd: reply.costUsd },
    );
    plan.onReply?.();
    return maxTokens < plan.maxTokens ? { reply, capped: maxTokens } : { reply };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const error = `Model call failed: ${failureMessage(err)}`;
    chain.toolResult({ correlationId, success: false, result: null, error, durationMs: 0 }, visibility, { model: candidate.model });
    throw new ModelCallFailed(error);
  }
}
