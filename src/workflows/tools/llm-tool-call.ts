import { ApplicationFailure } from '@temporalio/workflow';
import {
  LlmAnswer,
  LlmConsensus,
  type ConsensusAnswer,
  observationText,
  type ModelMessage,
  type SubBudget,
  type ToolCall,
  type ToolOutput,
  type ToolResult,
  type ToolSpec,
} from '../../domain';
import { FailureType } from '../../domain/run/failure-types';
import type { ModelMeta } from '../core/chain/chain-builder';
import type { Observation } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
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
  /** How many model calls the tool makes: the length of `models` in a consensus, else 1. */
  calls: number;
}

/** How many models a call asks: every name in `models` (a consensus), else the one `model`. */
function modelsAsked(args: Record<string, unknown>): number {
  const models = args['models'];
  return Array.isArray(models) && models.length > 0 ? models.length : 1;
}

/**
 * The budget check of one `llm` tool call, as for the run's own model calls: throws
 * BudgetExhausted when even a short answer would cross the token or cost budget (nothing is
 * called), else lowers `maxTokens` to what the budget affords. The answering model's price is not
 * known here (the worker's registry holds it), so the cost budget is checked against what is
 * already spent; the answer's cost joins the ledger as soon as it is in. A consensus asks each of
 * its models the same prompt, so the budget must afford that many calls: the input counts once per
 * model, and what output is left is shared equally (`maxTokens` is per model).
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
  const calls = modelsAsked(args);
  const inputTokens = estimateInputTokens(call) * calls;
  const output = affordableMaxTokens(state.committed(), input, { ...call, maxTokens: asked * calls }, inputTokens);
  const maxTokens = Math.max(1, Math.floor(output / calls));
  const tokens = inputTokens + maxTokens * calls;
  // The call itself was counted against the tenant's calls per minute before (tool-call.ts): tokens only.
  await ensureTenantTokens(ctx, tokens, 0);
  const hold = { tokenBudget: tokens };
  state.reserve(hold);
  return { args: maxTokens < asked ? { ...args, maxTokens } : args, hold, calls };
}

/** What the activity may return: the tool's own cut answers, JSON-escaped (up to twice as long), each in its envelope. */
export function llmResultRoom(spec: ToolSpec, limit: number, calls = 1): number {
  return Math.max(limit, 2 * (spec.maxResultChars ?? limit)) + ENVELOPE_CHARS * calls;
}

/** One model's call within a consensus, for the chain: its own `llm` call step and result step. */
export interface ConsensusCallSteps {
  call: ToolCall;
  result: ToolResult;
  meta: ModelMeta;
}

/** What the chain records of an `llm` tool's result; `calls` (a consensus) go before `shown`, each its own `llm` step. */
export interface TakenLlmResult {
  shown: ToolResult;
  /** Absent for a consensus: its calls carry the models, tokens and costs. */
  meta?: ModelMeta;
  observation: Observation;
  calls?: ConsensusCallSteps[];
}

/**
 * Reads an `llm` tool's answer, counts its spend into the run's ledger, and cuts the answer to
 * the call's limit. A result that is not an LlmAnswer (or an LlmConsensus) fails closed
 * (ToolResultUnusable): a model call whose cost cannot be counted is not used.
 */
export function takeLlmAnswer(
  ctx: RunContext,
  callId: string,
  out: ToolOutput,
  limit: number,
  toolName = 'ask_model',
): TakenLlmResult {
  const consensus = LlmConsensus.safeParse(out.result);
  if (consensus.success) return takeConsensus(ctx, callId, out, limit, toolName, consensus.data);
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

/**
 * A consensus: every model's spend joins the ledger on its own (as a single call's would), and
 * each model's call becomes its own pair of `llm` steps (call and result, with model, tokens and
 * cost) under the tool call, whose own result is the agreement with each answer cut to an equal
 * share of the limit, and carries no spend (the steps' spend sums to what was counted).
 */
function takeConsensus(
  ctx: RunContext,
  callId: string,
  out: ToolOutput,
  limit: number,
  toolName: string,
  consensus: LlmConsensus,
): TakenLlmResult {
  const share = Math.max(1, Math.floor(limit / consensus.answers.length));
  const calls: ConsensusCallSteps[] = [];
  let cutAny = false;
  const answers = consensus.answers.map((a) => {
    const call: ToolCall = {
      toolType: 'llm',
      toolName,
      arguments: { model: a.alias, consensusOf: callId },
      correlationId: `${callId}/${a.alias}`,
    };
    // A model's own time when it reported one, else the whole call's.
    const durationMs = a.error === undefined && a.durationMs !== undefined ? a.durationMs : out.durationMs;
    const base = { correlationId: call.correlationId, durationMs };
    if (a.error !== undefined) {
      calls.push({ call, result: { ...base, success: false, result: null, error: a.error }, meta: { model: a.model } });
      return { model: a.alias, error: a.error };
    }
    ctx.state.countToolSpend(a);
    const cut = a.answer.length > share;
    cutAny ||= cut || a.truncated === true;
    const answer = cut ? a.answer.slice(0, share) : a.answer;
    const flags = cut || a.truncated ? { truncated: true } : {};
    calls.push({
      call,
      result: { ...base, success: true, result: answer, ...flags },
      meta: { model: a.model, usage: a.usage, costUsd: a.costUsd },
    });
    return { model: a.alias, answer, ...flags, ...(a.stopReason === 'max_tokens' ? { reachedMaxTokens: true } : {}) };
  });
  if (consensus.judge) calls.push(judgeSteps(ctx, callId, out, toolName, consensus.judge, share));
  const { agreement, unanimous, majority, groups, groupedBy, judgeProblem } = consensus;
  const result = {
    agreement,
    unanimous,
    ...(majority !== undefined ? { majority: majority.slice(0, share) } : {}),
    groups,
    ...(groupedBy !== undefined ? { groupedBy } : {}),
    ...(judgeProblem !== undefined ? { judgeProblem } : {}),
    answers,
  };
  const shown: ToolResult = {
    correlationId: callId,
    success: true,
    result,
    durationMs: out.durationMs,
    ...(out.attempts ? { attempts: out.attempts } : {}),
    ...(cutAny ? { truncated: true } : {}),
  };
  return { shown, observation: { callId, content: observationText(result), isError: false }, calls };
}

/**
 * The consensus judge's call (the tool's `consensusJudge`) as its own pair of `llm` steps after
 * the models': its reply (cut to the share) or its error, and its spend, counted into the ledger.
 */
function judgeSteps(
  ctx: RunContext,
  callId: string,
  out: ToolOutput,
  toolName: string,
  judge: ConsensusAnswer,
  share: number,
): ConsensusCallSteps {
  const call: ToolCall = {
    toolType: 'llm',
    toolName,
    arguments: { model: judge.alias, judgeOf: callId },
    correlationId: `${callId}/judge/${judge.alias}`,
  };
  if (judge.error !== undefined)
    return {
      call,
      result: {
        correlationId: call.correlationId,
        durationMs: out.durationMs,
        success: false,
        result: null,
        error: judge.error,
      },
      meta: { model: judge.model },
    };
  ctx.state.countToolSpend(judge);
  const cut = judge.answer.length > share;
  return {
    call,
    result: {
      correlationId: call.correlationId,
      durationMs: judge.durationMs ?? out.durationMs,
      success: true,
      result: cut ? judge.answer.slice(0, share) : judge.answer,
      ...(cut || judge.truncated ? { truncated: true } : {}),
    },
    meta: { model: judge.model, usage: judge.usage, costUsd: judge.costUsd },
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
