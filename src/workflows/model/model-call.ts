import { isCancellation } from '@temporalio/workflow';
import type {
  DescribeTools,
  FallbackModel,
  ModelCallInput,
  ModelMessage,
  ModelReply,
  ModelRequest,
  ModelTool,
  ToolSpec,
} from '../../domain';
import type { ModelCallResult } from '../../domain/model/model-call-result';
import { callPurpose, type ModelCallPurpose } from '../../domain/chain/model-times';
import { priceFor, type Price } from '../../domain/model/pricing';
import { HELD_TEXT } from '../../domain/guardrails/guardrail';
import { modelCacheRequest } from '../../domain/planning/cache-request';
import { activities, modelCallOptions } from '../activity-proxies';
import { failureMessage, failureType } from '../core/failure-message';
import { ModelCallFailed } from '../core/loop-signals';
import { replyText } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import { ensureTenantTokens, needsTenantTokens } from '../tenant-quota/tenant-tokens';
import { affordableMaxTokens, estimateInputTokens } from './budget';
import { takenCallIds, withUniqueCallIds } from './unique-call-ids';

/** A model to call, with the room and price it is called with. */
export type Candidate = Required<Pick<FallbackModel, 'provider' | 'model'>> &
  Pick<FallbackModel, 'price' | 'sampling' | 'endpoints'> & { maxTokens: number };

export interface RecordedReply {
  reply: ModelReply;
  /** The lowered max_tokens, when the budget allowed less than asked. */
  capped?: number;
  /** The registered tools the call described itself (ModelCallRequest.describeTools). */
  describedTools?: ToolSpec[];
}

/** One model call as the run asks for it. */
export interface ModelCallRequest {
  candidate: Candidate;
  system: string;
  messages: ModelMessage[];
  tools: ModelTool[];
  /** The run's registered tools, for the worker to describe and offer before `tools` (the run's first call: run-tools.ts). */
  describeTools?: DescribeTools;
  toolChoice: 'auto' | 'none';
  maxTokens: number;
  stopSequences?: string[];
  /** Why this call is made, shown in the chain (a retry, a fallback, a summary). */
  note?: string;
  /** What the call is for, kept in its `llm` step's arguments so times can be told apart (domain/chain/model-times.ts). */
  purpose?: ModelCallPurpose;
  /** The loop's own turns publish the run's progress once the reply is in; side calls (planning, summaries) do not. */
  publishReply?: boolean;
}

/**
 * One model call as a visible pair of `llm` steps, paid for by the run's ledger: the budget must
 * afford it first (else BudgetExhausted, nothing called). Failures become ModelCallFailed;
 * cancellation propagates untouched.
 */
export async function recordedModelCall(ctx: RunContext, request: ModelCallRequest): Promise<RecordedReply> {
  const priced = priceModelCall(ctx, request);
  if (priced.lease !== undefined) await ensureTenantTokens(ctx, priced.lease);
  const call = openModelCall(ctx, request, priced);
  try {
    return call.finish(await call.start());
  } catch (err) {
    throw call.failed(err);
  }
}

/** A model call the ledger can afford, before anything is recorded. */
export interface PricedModelCall {
  price: Price | undefined;
  maxTokens: number;
  /** Tokens to lease from the tenant's quota first; undefined when no lease is needed. */
  lease: number | undefined;
}

/**
 * The budget check of a model call (throws BudgetExhausted when it cannot be afforded) and the
 * tokens its tenant lease must hold. Records nothing.
 */
export function priceModelCall(ctx: RunContext, request: ModelCallRequest): PricedModelCall {
  const { input, state } = ctx;
  const price = request.candidate.price ?? priceFor(request.candidate.model);
  // Estimated once: it reads the whole conversation as JSON.
  const inputTokens = estimateInputTokens(request);
  const maxTokens = affordableMaxTokens(state.committed(), input, { ...request, price }, inputTokens);
  // Most calls need no lease, and then no await: the SDK takes a stack trace for every promise.
  const needed = inputTokens + maxTokens;
  return { price, maxTokens, lease: needsTenantTokens(ctx, needed) ? needed : undefined };
}

/** A model call whose `llm` step is recorded: `start` calls the activity; one of `finish` or `failed` records its result. */
export interface OpenModelCall {
  start(): Promise<ModelCallResult>;
  finish(received: ModelCallResult): RecordedReply;
  /** What to throw for `err`: cancellation as it is, anything else as ModelCallFailed. */
  failed(err: unknown): unknown;
}

/**
 * Records a priced call's `llm` step and returns its halves, so a caller can await the activity
 * itself (each async layer is a promise the SDK takes a stack trace for, on every task and replay).
 */
export function openModelCall(ctx: RunContext, request: ModelCallRequest, priced: PricedModelCall): OpenModelCall {
  const { input, state, chain } = ctx;
  const { candidate } = request;
  const { maxTokens } = priced;
  const correlationId = chain.newId();
  const visibility = { level: input.visibility };
  const { describeTools } = request;
  const args = {
    provider: candidate.provider,
    maxTokens,
    messages: request.messages.length,
    // The registered tools the call describes come first; all of them, when the run names none (the result lists them).
    tools: [...(describeTools?.names ?? []), ...request.tools.map((t) => t.name)],
    ...(describeTools ? { describesTools: describeTools.names ? ('named' as const) : ('all' as const) } : {}),
    toolChoice: request.toolChoice,
    ...(request.note ? { note: request.note } : {}),
    ...(request.purpose ? { purpose: request.purpose } : {}),
  };
  // The purpose modelTimes reads from this step, so the running totals match the chain's.
  const purpose = callPurpose(args);
  chain.toolCall(
    {
      toolType: 'llm',
      toolName: candidate.model,
      arguments: args,
      correlationId,
    },
    visibility,
    { model: candidate.model },
  );
  state.countModelCall();
  // The tenant's per-minute call it leased (ensureTenantTokens) before this call.
  state.spendTenantCall();
  let sentHash: string | undefined;
  const cache = modelCacheRequest(input);
  const start = (): Promise<ModelCallResult> => {
    const call = {
      provider: candidate.provider,
      model: candidate.model,
      system: request.system,
      tools: request.tools,
      toolChoice: request.toolChoice,
      maxTokens,
      ...(describeTools ? { describeTools } : {}),
      ...(request.stopSequences ? { stopSequences: request.stopSequences } : {}),
      ...(candidate.sampling ? { sampling: candidate.sampling } : {}),
      ...(candidate.endpoints ? { endpoints: candidate.endpoints } : {}),
      // Only when the run caches model replies (`cache.model`): other calls record what they always did.
      ...(cache ? { cache } : {}),
      // A run whose answer the output guardrails check publishes no live text: it could be the answer.
      ...(answerChecked(input) ? { holdLiveText: true as const } : {}),
    };
    const sent = callInput(ctx, call, request.messages);
    sentHash = sent.conversation.hash;
    return activities.callModel.executeWithOptions(
      modelCallOptions(input.model, `${candidate.model} · iteration ${state.iteration}`),
      [sent],
    );
  };
  const finish = ({ describedTools, ...received }: ModelCallResult): RecordedReply => {
    state.countReply(received);
    // The loop's next call builds on this reply as received; side calls' replies join no conversation.
    // Its worker keeps the conversation with the reply, so the next call names it instead of recording it again.
    if (request.publishReply && sentHash !== undefined) ctx.conversations.replied(sentHash, received.content);
    // Repeated tool call ids are renamed before anything uses them: each call gets its own approval and result.
    const unique = withUniqueCallIds(received, takenCallIds(chain.steps, state.messages));
    const reply = unique ? unique.reply : received;
    const toolUses = reply.content.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name }));
    chain.toolResult(
      {
        correlationId,
        success: true,
        result: {
          stopReason: reply.stopReason,
          text: heldText(input, request, toolUses) ?? replyText(reply),
          toolCalls: toolUses,
          // Which registry entry answered, when the call was balanced across several.
          ...(reply.endpoint ? { endpoint: reply.endpoint } : {}),
          // What the model was offered besides the run's own tools, when the call described them.
          ...(describedTools ? { describedTools: describedTools.map((t) => t.name) } : {}),
        },
        durationMs: reply.durationMs,
      },
      visibility,
      {
        model: reply.model,
        usage: reply.usage,
        costUsd: reply.costUsd,
        // A reply the worker had stored from an earlier run (usage and cost zero): which run, how old.
        ...(reply.cacheHit ? { cacheHit: reply.cacheHit } : {}),
      },
    );
    state.countModelTime(purpose, chain.iteration, reply.durationMs);
    if (unique) {
      chain.thinking(
        `The model gave one id to several tool calls; renamed ${unique.renamed.map((r) => `${r.from} → ${r.to}`).join(', ')}, so each call has its own approval and result.`,
        { level: 'full' },
      );
    }
    if (request.publishReply) ctx.progress.publish();
    return {
      reply,
      ...(maxTokens < request.maxTokens ? { capped: maxTokens } : {}),
      ...(describedTools ? { describedTools } : {}),
    };
  };
  const failed = (err: unknown): unknown => {
    if (isCancellation(err)) return err;
    const error = `Model call failed: ${failureMessage(err)}`;
    chain.toolResult({ correlationId, success: false, result: null, error, durationMs: 0 }, visibility, {
      model: candidate.model,
    });
    state.countModelTime(purpose, chain.iteration, 0);
    return new ModelCallFailed(error, failureType(err));
  };
  return { start, finish, failed };
}

/** True when the run's output guardrails check its answer (docs/guardrails.md). */
const answerChecked = (input: RunContext['input']): boolean =>
  input.guardrailSpecs?.some((g) => g.stage === 'output') ?? false;

/**
 * What an `llm` step shows in place of a reply's text that may be the run's answer, while the
 * output guardrails have not read it: the answer's own step (the synthesis) shows it once they
 * passed it, and a blocked one is shown nowhere. Undefined: the text is shown as it is.
 */
function heldText(
  input: RunContext['input'],
  request: ModelCallRequest,
  toolUses: readonly { name: string }[],
): string | undefined {
  if (!answerChecked(input)) return undefined;
  const ends =
    request.toolChoice === 'none' ||
    toolUses.length === 0 ||
    toolUses.some((t) => t.name === input.finishToolName || t.name === input.giveUpToolName);
  return ends ? HELD_TEXT : undefined;
}

/**
 * What a model call records: only the messages new since a conversation this run sent before,
 * and the system prompt and tools only the first time (then `context` names them), so a call
 * records the bytes it adds, not the whole conversation again.
 */
function callInput(
  ctx: RunContext,
  call: Omit<ModelRequest, 'messages'>,
  messages: ModelMessage[],
): Exclude<ModelCallInput, ModelRequest> {
  const conversation = ctx.conversations.reference(messages);
  const context = ctx.conversations.context(call);
  if (!context) return { ...call, conversation };
  if (!context.sentBefore) return { ...call, conversation, context: context.hash };
  const { system: _system, tools: _tools, ...rest } = call;
  return { ...rest, conversation, context: context.hash };
}
