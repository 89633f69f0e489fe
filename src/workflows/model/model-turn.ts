import { FailureType, replyMessage, type ModelReply } from '../../domain';
import type { ModelCallResult } from '../../domain/model/model-call-result';
import { BudgetExhausted, ModelCallFailed } from '../core/loop-signals';
import type { ModelPrompt } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import { Pending, stepPromise, type Step } from '../core/pending';
import { ensureTenantTokens } from '../tenant-quota/tenant-tokens';
import {
  openModelCall,
  priceModelCall,
  type Candidate,
  type ModelCallRequest,
  type OpenModelCall,
  type PricedModelCall,
  type RecordedReply,
} from './model-call';

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
export function modelTurn(ctx: RunContext, prompt: ModelPrompt, toolChoice: 'auto' | 'none'): Step<ModelCallResult> {
  return new ModelTurn(ctx, prompt, toolChoice).attempt();
}

/**
 * The attempts of one turn, each the activity's own promise with what is made of it (pending.ts):
 * no async layer, no await and no `then` of its own (each is a promise the SDK takes a stack trace
 * for, on every workflow task and replay). A failure of any attempt moves on to the next model,
 * as the list allows.
 */
class ModelTurn {
  private readonly candidates: Candidate[];
  private index = 0;
  private attempts: TurnAttempts;

  constructor(
    private readonly ctx: RunContext,
    private readonly prompt: ModelPrompt,
    private readonly toolChoice: 'auto' | 'none',
  ) {
    this.candidates = candidatesOf(ctx);
    this.attempts = this.attemptsOf(undefined);
  }

  /** The next attempt: priced (BudgetExhausted when it cannot be afforded, nothing called), then called. */
  attempt(): Step<ModelCallResult> {
    const { ctx, prompt, toolChoice } = this;
    const request = attemptRequest(ctx, prompt, toolChoice, this.candidate, this.attempts);
    const priced = priceModelCall(ctx, request);
    if (priced.lease === undefined) return this.call(request, priced);
    return ensureTenantTokens(ctx, priced.lease).then(
      () => stepPromise(this.call(request, priced)),
      (err: unknown) => this.next(err),
    );
  }

  /** One attempt's call: whatever fails in it, the activity or its recording, goes to `next`. */
  private call(request: ModelCallRequest, priced: PricedModelCall): Step<ModelCallResult> {
    let call: OpenModelCall;
    let started: Promise<ModelCallResult>;
    try {
      call = openModelCall(this.ctx, request, priced);
    } catch (err) {
      return this.next(err);
    }
    try {
      started = call.start();
    } catch (err) {
      return this.next(call.failed(err));
    }
    return Pending.of(
      started,
      (received) => {
        let recorded: RecordedReply;
        try {
          recorded = call.finish(received);
        } catch (err) {
          return this.next(call.failed(err));
        }
        return this.after(recorded);
      },
      (err: unknown) => this.next(call.failed(err)),
    );
  }

  /** The turn's reply, or the next attempt the reply calls for (its own failures handled there). */
  private after(recorded: RecordedReply): ModelCallResult | Promise<ModelCallResult> {
    const reply = this.attempts.after(recorded);
    if (!reply) return stepPromise(this.attempt());
    return recorded.describedTools ? { ...reply, describedTools: recorded.describedTools } : reply;
  }

  /** After a failed attempt: the next model's first attempt, or the failure when no model is left for it. */
  private next(err: unknown): Promise<ModelCallResult> {
    if (!(err instanceof ModelCallFailed) || this.index === this.candidates.length - 1) return Promise.reject(err);
    // A tool set the worker cannot offer fails every model alike.
    if (err.failureType === FailureType.ToolNotRegistered || err.failureType === FailureType.InvalidAgentInput)
      return Promise.reject(err);
    const note = fallbackNote(this.candidate, err);
    this.index += 1;
    this.attempts = this.attemptsOf(note);
    return stepPromise(this.attempt());
  }

  private get candidate(): Candidate {
    return this.candidates[this.index]!;
  }

  private attemptsOf(note: string | undefined): TurnAttempts {
    return new TurnAttempts(this.ctx, this.candidate, note, this.prompt.readsCutReplies === true);
  }
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
