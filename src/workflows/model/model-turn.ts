import { FailureType, replyMessage, type ModelReply } from '../../domain';
import type { ModelCallResult } from '../../domain/model/model-call-result';
import { BudgetExhausted, ModelCallFailed } from '../core/loop-signals';
import type { ModelPrompt } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import { ensureTenantTokens } from '../tenant-quota/tenant-tokens';
import { openModelCall, priceModelCall, type Candidate, type ModelCallRequest, type RecordedReply } from './model-call';

/** A reply cut at max_tokens is retried with this many times the room, doubling, at most. */
const MAX_TOKENS_GROWTH = 4;
/** Bound on `pause_turn` continuations within one turn, so a looping server cannot spin us. */
const MAX_PAUSE_CONTINUATIONS = 5;

/**
 * One model turn as the loop sees it: a usable reply, after whatever it took. Every attempt is
 * a visible pair of `llm` steps; the arguments say why an attempt was made (`note`).
 *  - fallback models take over, in order, once a model has failed for good;
 *  - `max_tokens`: the cut reply is dropped (its tool input may be truncated) and the call is
 *    made again with twice the room, up to 4x; past that the cut reply is returned. A protocol
 *    that reads cut replies (text ReAct) gets the cut reply at once: servers that cap replies
 *    below what was asked cut every retry at the same place;
 *  - `pause_turn`: the partial reply joins the conversation and the call continues it;
 *  - `model_context_window_exceeded`: older tool results are elided, then one retry.
 * Before every attempt the budget ledger must afford it (else BudgetExhausted, nothing called);
 * `max_tokens` is lowered to what the budgets leave. A prompt whose registered tools are still to
 * be described (`describeTools`) has each attempt describe them; the reply carries the specs of
 * its own (`describedTools`), and a tool the worker cannot describe is no reason to try a fallback.
 */
export async function modelTurn(
  ctx: RunContext,
  prompt: ModelPrompt,
  toolChoice: 'auto' | 'none',
): Promise<ModelCallResult> {
  // One function awaiting each call's activity directly: every async layer is a promise the SDK
  // takes a stack trace for, on every workflow task and every replay.
  const candidates = candidatesOf(ctx);
  let note: string | undefined;
  for (const [index, candidate] of candidates.entries()) {
    const attempts = new TurnAttempts(ctx, candidate, note, prompt.readsCutReplies === true);
    try {
      for (;;) {
        const request = attemptRequest(ctx, prompt, toolChoice, candidate, attempts);
        const priced = priceModelCall(ctx, request);
        if (priced.lease !== undefined) await ensureTenantTokens(ctx, priced.lease);
        const call = openModelCall(ctx, request, priced);
        let recorded: RecordedReply;
        try {
          recorded = call.finish(await call.start());
        } catch (err) {
          throw call.failed(err);
        }
        const reply = attempts.after(recorded);
        if (reply) return recorded.describedTools ? { ...reply, describedTools: recorded.describedTools } : reply;
      }
    } catch (err) {
      if (!(err instanceof ModelCallFailed) || index === candidates.length - 1) throw err;
      // A tool set the worker cannot offer fails every model alike.
      if (err.failureType === FailureType.ToolNotRegistered || err.failureType === FailureType.InvalidAgentInput)
        throw err;
      note = fallbackNote(candidate, err);
    }
  }
  throw new ModelCallFailed('no model to call');
}

function candidatesOf({ input }: RunContext): Candidate[] {
  return [input.model, ...input.model.fallbacks].map((m) => ({
    provider: m.provider,
    model: m.model,
    maxTokens: m.maxTokens ?? input.model.maxTokens,
    price: m.price,
    ...(m.sampling ? { sampling: m.sampling } : {}),
    ...(m.endpoints ? { endpoints: m.endpoints } : {}),
  }));
}

const fallbackNote = (candidate: Candidate, err: ModelCallFailed): string =>
  `fallback from ${candidate.model} after: ${err.message}`;

/** The next attempt's call: the conversation as it stands, the room and the reason the attempts hold. */
function attemptRequest(
  ctx: RunContext,
  prompt: ModelPrompt,
  toolChoice: 'auto' | 'none',
  candidate: Candidate,
  attempts: TurnAttempts,
): ModelCallRequest {
  return {
    candidate,
    system: prompt.system,
    messages: ctx.state.messages,
    tools: prompt.tools,
    ...(prompt.describeTools ? { describeTools: prompt.describeTools } : {}),
    toolChoice,
    maxTokens: attempts.maxTokens,
    ...(prompt.stopSequences ? { stopSequences: prompt.stopSequences } : {}),
    ...(attempts.why ? { note: attempts.why } : {}),
    purpose: 'turn',
    publishReply: true,
  };
}

/** One model's attempts within a turn: what each reply means for the next (see modelTurn). */
class TurnAttempts {
  maxTokens: number;
  why: string | undefined;
  private compacted = false;
  private pauses = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly candidate: Candidate,
    firstNote: string | undefined,
    private readonly readsCutReplies: boolean,
  ) {
    this.maxTokens = candidate.maxTokens;
    this.why = firstNote;
  }

  /** The turn's reply, or undefined when another attempt is due (its room and reason set). */
  after({ reply, capped }: RecordedReply): ModelReply | undefined {
    const { input, state } = this.ctx;
    if (reply.stopReason === 'max_tokens' && capped) {
      const reason = input.tokenBudget !== undefined ? 'token_budget' : 'cost_budget';
      throw new BudgetExhausted(
        reason,
        `The reply was cut at max_tokens, lowered to ${capped} by the budget; more room would cross it.`,
      );
    }
    if (
      reply.stopReason === 'max_tokens' &&
      !this.readsCutReplies &&
      this.maxTokens * 2 <= this.candidate.maxTokens * MAX_TOKENS_GROWTH
    ) {
      this.maxTokens *= 2;
      this.why = `previous reply was cut at max_tokens; retrying with ${this.maxTokens}`;
      return undefined;
    }
    if (reply.stopReason === 'model_context_window_exceeded' && !this.compacted) {
      this.compacted = true;
      this.why = `context window exceeded; elided ${state.compact()} older tool results`;
      return undefined;
    }
    state.addMessage(replyMessage(reply.content));
    if (reply.stopReason === 'pause_turn' && this.pauses < MAX_PAUSE_CONTINUATIONS) {
      this.pauses += 1;
      this.why = 'continuing a paused turn';
      return undefined;
    }
    return reply;
  }
}
