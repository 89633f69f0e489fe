import type { ModelReply } from '../../shared';
import { BudgetExhausted, ModelCallFailed } from '../core/loop-signals';
import type { ModelPrompt } from '../core/model-exchange';
import type { RunContext } from '../core/run-context';
import { recordedModelCall, type Candidate, type RecordedReply } from './model-call';

/** A reply cut at max_tokens is retried with this many times the room, doubling, at most. */
const MAX_TOKENS_GROWTH = 4;
/** Bound on `pause_turn` continuations within one turn, so a looping server cannot spin us. */
const MAX_PAUSE_CONTINUATIONS = 5;

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
  ctx: RunContext,
  prompt: ModelPrompt,
  toolChoice: 'auto' | 'none',
): Promise<ModelReply> {
  const { input, state } = ctx;
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
      state.addMessage({ role: 'assistant', content: reply.content });
      if (reply.stopReason === 'pause_turn' && pauses < MAX_PAUSE_CONTINUATIONS) {
        pauses += 1;
        why = 'continuing a paused turn';
        continue;
      }
      return reply;
    }
  }

  function callOnce(candidate: Candidate, wanted: number, note: string | undefined): Promise<RecordedReply> {
    return recordedModelCall(ctx, {
      candidate,
      system: prompt.system,
      messages: state.messages,
      tools: prompt.tools,
      toolChoice,
      maxTokens: wanted,
      ...(prompt.stopSequences ? { stopSequences: prompt.stopSequences } : {}),
      ...(note ? { note } : {}),
      publishReply: true,
    });
  }
}

