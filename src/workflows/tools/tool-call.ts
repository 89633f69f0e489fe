import { ActivityCancellationType, isCancellation } from '@temporalio/workflow';
import type { AgentInput, ReasoningStep, ToolResult, ToolSpec, ToolUseBlock } from '../../shared';
import { activities, toolCallOptions } from '../activity-proxies';
import { BudgetExhausted } from '../model/budget';
import type { ChainBuilder } from '../core/chain-builder';
import { childWorkflowId } from '../delegation/delegation-guard';
import { failureMessage } from '../core/failure-message';
import { ModelCallFailed } from '../model/model-turn';
import type { RunState } from '../core/run-state';
import { callKey } from '../core/stable-hash';
import type { Observation } from '../loop/strategies';
import { SUMMARY_SOURCE_CHARS, summariseObservation } from '../model/summarise-observation';
import { toolStepVisibility } from '../core/tool-visibility';
import type { ToolCallCheck } from './validate-tool-call';

/** What one validated tool call needs from the run around it. */
export interface ToolRunContext {
  input: AgentInput;
  state: RunState;
  chain: ChainBuilder;
  workflowId: string;
  onStarted(): void;
}

/** The result limit for one tool: the smallest of the run's characters, its tokens (4 chars each) and the tool's own. */
export function resultLimit(input: AgentInput, spec: ToolSpec): number {
  const limits = [input.maxToolResultChars, input.maxToolResultTokens ? input.maxToolResultTokens * 4 : undefined, spec.maxResultChars];
  return Math.min(...limits.filter((n): n is number => n !== undefined));
}

/**
 * Runs one validated call: a repeat of a read-only call reuses the earlier observation (no
 * activity); otherwise the `runTool` activity, with its result limited or summarised. Errors
 * come back as observations with their context; cancellation is recorded, then propagates.
 */
export async function runToolCall(
  ctx: ToolRunContext,
  call: ToolUseBlock,
  check: Extract<ToolCallCheck, { ok: true }>,
  /** Already recorded, e.g. when the call waited for approval. */
  recordedCall?: ReasoningStep,
): Promise<Observation> {
  const { input, state, chain } = ctx;
  const { spec, args } = check;
  const key = callKey(spec.name, args);
  const callStep = recordedCall ?? recordToolCall(chain, input, spec, call.id, args);
  const shownAs = (result?: unknown) => toolStepVisibility(input, spec, args, result);
  const visibility = shownAs();

  const earlier = spec.readOnly ? state.cached(key) : undefined;
  if (earlier) {
    state.cachedCalls += 1;
    const { result, error, truncated, summarised } = earlier;
    chain.toolResult(
      { correlationId: call.id, success: !earlier.isError, result, durationMs: 0, cachedFrom: earlier.stepId, ...(error ? { error } : {}), ...(truncated ? { truncated } : {}), ...(summarised ? { summarised } : {}) },
      shownAs(result),
    );
    return { callId: call.id, content: earlier.content, isError: earlier.isError };
  }

  state.toolCalls += 1;
  ctx.onStarted();
  const limit = resultLimit(input, spec);
  const summary = `${spec.name} ${JSON.stringify(args)}`.slice(0, 200);
  let observation: Observation;
  let shown: ToolResult;
  let ran = false;
  try {
    const out = await activities.runTool.executeWithOptions(
      // Wait for the tool to acknowledge a cancel, so the chain can say whether it ran.
      { ...toolCallOptions(spec, summary), cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED },
      [{ toolName: spec.name, arguments: args, idempotencyKey: `${ctx.workflowId}:${callStep.stepId}`, maxResultChars: input.summariseLargeResults ? Math.max(limit, SUMMARY_SOURCE_CHARS) : limit }],
    );
    ran = true;
    const text = typeof out.result === 'string' ? out.result : JSON.stringify(out.result);
    const condensed = text.length > limit && input.summariseLargeResults ? await summariseOrCut(ctx, spec, text, limit) : undefined;
    const flags = condensed?.summarised ? { summarised: true } : out.truncated || condensed ? { truncated: true } : {};
    shown = { correlationId: call.id, success: true, result: condensed?.text ?? out.result, durationMs: out.durationMs, ...flags };
    chain.toolResult(shown, shownAs(shown.result));
    observation = { callId: call.id, content: condensed?.text ?? text, isError: false };
  } catch (err) {
    if (isCancellation(err)) {
      const error = ran ? 'The tool ran, but the run was cancelled before its result was used.' : 'Cancelled while running; the tool acknowledged the cancellation.';
      chain.toolResult({ correlationId: call.id, success: false, result: null, error, durationMs: 0, outcome: ran ? 'done' : 'cancelled' }, visibility);
      throw err;
    }
    if (err instanceof BudgetExhausted || err instanceof ModelCallFailed) throw err;
    const error = `Tool "${spec.name}" failed with arguments ${JSON.stringify(args).slice(0, 300)}: ${failureMessage(err)}`;
    shown = { correlationId: call.id, success: false, result: null, error, durationMs: 0 };
    chain.toolResult(shown, visibility);
    observation = { callId: call.id, content: error, isError: true };
  }
  if (spec.readOnly) {
    const { result, error, truncated, summarised } = shown;
    state.remember({ key, stepId: callStep.stepId, content: observation.content, isError: observation.isError, result, ...(error ? { error } : {}), ...(truncated ? { truncated } : {}), ...(summarised ? { summarised } : {}) });
  }
  return observation;
}

/** The tool_call step of a validated call, with its sensitive fields named for the views. */
export function recordToolCall(chain: ChainBuilder, input: AgentInput, spec: ToolSpec, callId: string, args: Record<string, unknown>): ReasoningStep {
  const sensitive = spec.sensitiveFields?.length ? { sensitiveFields: spec.sensitiveFields } : {};
  // A delegation names its child run from the start, so watchers can follow it while it works.
  const delegated = spec.type === 'sub_agent' ? { delegatedTo: { agentName: spec.name, workflowId: childWorkflowId(chain.chainId, spec.name, chain.steps.length + 1) } } : {};
  return chain.toolCall({ toolType: spec.type, toolName: spec.name, arguments: args, correlationId: callId, ...sensitive, ...delegated }, toolStepVisibility(input, spec, args));
}

/** A summary when the model gives one, else the text cut to the limit with a marker. */
async function summariseOrCut(ctx: ToolRunContext, spec: ToolSpec, text: string, limit: number): Promise<{ text: string; summarised: boolean }> {
  try {
    const summary = await summariseObservation(ctx.input, ctx.state, ctx.chain, spec, text, limit);
    if (summary) return { text: summary, summarised: true };
  } catch (err) {
    if (!(err instanceof ModelCallFailed) && !(err instanceof BudgetExhausted)) throw err;
  }
  return { text: `${text.slice(0, limit)}\n…[truncated: showing ${limit} of ${text.length} characters]`, summarised: false };
}
