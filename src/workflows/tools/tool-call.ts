import { ActivityCancellationType, ActivityFailure, ApplicationFailure, isCancellation } from '@temporalio/workflow';
import {
  observationText,
  toolEffects,
  type AgentInput,
  type CacheHit,
  type NarrowedVisibility,
  type ReasoningStep,
  type ToolOutput,
  type ToolResult,
  type ToolSpec,
  type ToolUseBlock,
  type Visibility,
} from '../../domain';
import { FailureType } from '../../domain/run/failure-types';
import { toolCacheRequest, uncacheableReason } from '../../domain/planning/cache-request';
import { auditedArguments, auditedResult, auditedValue } from '../../domain/tools/tool-audit';
import {
  activities,
  localActivities,
  localToolCallOptions,
  mcpTaskCallOptions,
  toolCallOptions,
} from '../activity-proxies';
import { failureMessage } from '../core/failure-message';
import { BudgetExhausted, isLoopSignal } from '../core/loop-signals';
import type { ModelMeta } from '../core/chain/chain-builder';
import type { Observation, ValidCall } from '../core/model-exchange';
import type { RunContext } from '../core/state/run-context';
import { recordToolCall } from '../core/chain/record-calls';
import { callKey } from '../core/stable-hash';
import { narrowedByTool, toolStepVisibility } from '../core/chain/tool-visibility';
import { SUMMARY_SOURCE_CHARS, summariseObservation } from '../model/summarise-observation';
import type { ApprovalGate } from '../people/approval-gate';
import type { QuestionDesk } from '../people/question-desk';
import { runToolActivity, type RunTool } from './elicited-run';
import { affordLlmCall, llmResultRoom, takeLlmAnswer, type AffordedLlmCall } from './llm-tool-call';
import { ensureTenantTokens, needsTenantTokens } from '../tenant-quota/tenant-tokens';
import { withAlternatives } from './alternatives';
import { OutcomeUnknown, runOnce } from './lost-attempt';
import { waitForMcpTask, type McpTaskCalls } from './mcp-task-wait';

/** What a call brings besides the call itself, when it has it. */
export interface ToolCallExtras {
  /** Where a tool's request for input (MCP elicitation) becomes a question for a person. */
  desk?: QuestionDesk;
  /** Where a person settles a lost `once` call (run again, mark done, give up). */
  gate?: ApprovalGate;
  /** The tool's `validate` hook allowed the arguments already (before approval). */
  validated?: boolean;
}

/** The result limit for one tool: the smallest of the run's characters, its tokens (4 chars each) and the tool's own. */
export function resultLimit(input: AgentInput, spec: ToolSpec): number {
  const limits = [
    input.maxToolResultChars,
    input.maxToolResultTokens ? input.maxToolResultTokens * 4 : undefined,
    spec.maxResultChars,
  ];
  return Math.min(...limits.filter((n): n is number => n !== undefined));
}

/**
 * Runs one validated call: a repeat of a call without effects reuses the earlier observation (no
 * activity); otherwise the `runTool` activity, with its result limited or summarised; a `once`
 * tool's lost attempt is settled in lost-attempt.ts. Errors come back as observations with their
 * context (and the tool's alternatives); cancellation is recorded, then propagates. What the chain
 * keeps follows the tool's audit level; the model reads the whole observation.
 */
export async function runToolCall(
  ctx: RunContext,
  call: ToolUseBlock,
  check: ValidCall,
  /** Already recorded, e.g. when the call waited for approval. */
  recordedCall?: ReasoningStep,
  { desk, gate, validated }: ToolCallExtras = {},
): Promise<Observation> {
  const { input, state } = ctx;
  const { spec, args } = check;
  const key = callKey(spec.name, args);
  const callStep = recordedCall ?? recordToolCall(ctx.chain, input, spec, call.id, args, check.routed);
  const recordedArgs = auditedArguments(spec, args);
  const shownAs = (result?: unknown) => toolStepVisibility(input, spec, recordedArgs, auditedValue(spec, result));
  const visibility = shownAs();
  // Every result of this call is recorded at the tool's audit level.
  const chain = {
    toolResult: (shown: ToolResult, shownTo: Visibility, meta?: ModelMeta | { cacheHit: CacheHit }) =>
      ctx.chain.toolResult(auditedResult(spec, shown), shownTo, meta),
  };
  const effects = toolEffects(spec);

  const earlier = effects === 'none' ? state.cached(key) : undefined;
  if (earlier) {
    state.countCachedCall();
    const { result, error, truncated, summarised, narrowed } = earlier;
    chain.toolResult(
      {
        correlationId: call.id,
        success: !earlier.isError,
        result,
        durationMs: 0,
        cachedFrom: earlier.stepId,
        ...(error ? { error } : {}),
        ...(truncated ? { truncated } : {}),
        ...(summarised ? { summarised } : {}),
      },
      narrowedByTool(spec, shownAs(result), narrowed),
    );
    return { callId: call.id, content: earlier.content, isError: earlier.isError };
  }

  state.countToolCall();
  ctx.progress.details();
  // The tenant's calls per minute and spend per hour: most calls hold a leased call already (no await).
  if (needsTenantTokens(ctx, 0)) await tenantCallOrStop(ctx, call);
  state.spendTenantCall();
  const limit = resultLimit(input, spec);
  const summary = `${spec.name} ${JSON.stringify(args)}`.slice(0, 200);
  let observation: Observation;
  let shown: ToolResult;
  let ran = false;
  // The tool's own request to show its result less widely; never wider than configured.
  let narrowed: NarrowedVisibility | undefined;
  const startedAtMs = Date.now();
  const once = effects === 'once';
  // A model call made by a tool: paid for by the run's ledger, so the budget must afford it first.
  const llm = spec.type === 'llm' ? await affordOrStop(ctx, call, spec, args) : undefined;
  const room = llm
    ? llmResultRoom(spec, limit, llm.calls)
    : input.summariseLargeResults
      ? Math.max(limit, SUMMARY_SOURCE_CHARS)
      : limit;
  const cache = toolCacheRequest(input, spec);
  if (!cache && input.cache?.tools.includes(spec.name)) noteNeverCached(ctx, spec);
  try {
    const runner = toolRunner(spec, summary, once);
    const invocation = {
      toolName: spec.name,
      arguments: llm?.args ?? args,
      idempotencyKey: `${ctx.workflowId}:${callStep.stepId}`,
      maxResultChars: room,
      ...(validated ? { validated } : {}),
      // Only for a tool the run caches (`cache.tools`): other calls record what they always did.
      ...(cache ? { cache } : {}),
    };
    // The activity awaited here (one promise fewer); a request for input goes on in runToolActivity.
    const first = once
      ? await runOnce(ctx, { call, spec, args, stepId: callStep.stepId, gate }, runner, invocation)
      : { out: await runner(invocation), settled: false };
    let out: ToolOutput = first.out;
    // An MCP server answered with a task: the run waits on timers and polls it (default runs never get here).
    const tasks = mcpTaskCalls(spec, summary);
    // Whether the result came from a pollMcpTask activity rather than runTool's own result.
    let fromTask = out.parked !== undefined;
    if (out.parked) out = await waitForMcpTask(tasks, invocation, out.parked, startedAtMs);
    const waitingRunner: RunTool = async (again) => {
      const next = await runner(again);
      fromTask = next.parked !== undefined;
      return next.parked ? waitForMcpTask(tasks, again, next.parked, Date.now()) : next;
    };
    if (out.needsInput) out = await runToolActivity(ctx, desk, call.id, waitingRunner, invocation, out);
    if (out.refused !== undefined) {
      // The tool's validate hook refused: it did not run, and the model reads why.
      const error = withAlternatives(spec, `Not run: ${spec.name} refused these arguments: ${out.refused}`);
      shown = { correlationId: call.id, success: false, result: null, error, durationMs: 0, outcome: 'not_run' };
      chain.toolResult(shown, visibility);
      return remembered(ctx, spec, key, callStep.stepId, shown, { callId: call.id, content: error, isError: true });
    }
    ran = true;
    narrowed = out.visibility;
    const resultShownAs = (result: unknown) => narrowedByTool(spec, shownAs(result), narrowed);
    if (llm) {
      const taken = takeLlmAnswer(ctx, call.id, out, limit, spec.name);
      // A consensus: each model's call is its own llm step pair, before the tool call's result.
      for (const sub of taken.calls ?? []) {
        ctx.chain.toolCall(sub.call, callStep.visibility, { model: sub.meta.model });
        chain.toolResult(sub.result, resultShownAs(sub.result.result), sub.meta);
      }
      chain.toolResult(taken.shown, resultShownAs(taken.shown.result), taken.meta);
      return remembered(ctx, spec, key, callStep.stepId, taken.shown, taken.observation, narrowed);
    }
    const text = observationText(out.result);
    const condensed =
      text.length > limit && input.summariseLargeResults ? await summariseOrCut(ctx, spec, text, limit) : undefined;
    const flags = condensed?.summarised ? { summarised: true } : out.truncated || condensed ? { truncated: true } : {};
    shown = {
      correlationId: call.id,
      success: true,
      result: condensed?.text ?? out.result,
      durationMs: out.durationMs,
      ...(out.attempts ? { attempts: out.attempts } : {}),
      ...flags,
      // A lost `once` call that reconcile or a person said took effect.
      ...(first.settled ? { outcome: 'done' as const } : {}),
    };
    // A result the worker had stored from an earlier run: the step says which run and how old it is.
    // The model reads the same text as when the tool ran, so the conversation (and model caching) stays the same.
    const step = chain.toolResult(
      shown,
      resultShownAs(shown.result),
      out.cacheHit ? { cacheHit: out.cacheHit } : undefined,
    );
    observation = { callId: call.id, content: condensed?.text ?? text, isError: false };
    // Not for a result reconcile or a person gave: no runTool result holds it.
    if (!condensed && !spec.local && !first.settled) {
      // The text is this activity's result in the history: the run's result may name it (a step the chain keeps whole).
      // Readers put it back from runTool's result (restore-observations.ts): not from a task's poll.
      if ((spec.auditLevel ?? 'full') === 'full' && !fromTask) ctx.resultsInHistory.add(step.stepId);
      // The worker that ran it keeps the text, so the next model call can name it instead of recording it again.
      ctx.conversations.returnedByWorker(text);
    }
  } catch (err) {
    if (isCancellation(err)) {
      const error = ran
        ? 'The tool ran, but the run was cancelled before its result was used.'
        : 'Cancelled while running; the tool acknowledged the cancellation.';
      chain.toolResult(
        {
          correlationId: call.id,
          success: false,
          result: null,
          error,
          durationMs: 0,
          outcome: ran ? 'done' : 'cancelled',
        },
        visibility,
      );
      throw err;
    }
    if (isLoopSignal(err)) throw err;
    const unknown = err instanceof OutcomeUnknown;
    const error = withAlternatives(
      spec,
      unknown
        ? err.message
        : `Tool "${spec.name}" failed with arguments ${JSON.stringify(args).slice(0, 300)}: ${failureMessage(err)}`,
    );
    shown = {
      correlationId: call.id,
      success: false,
      result: null,
      error,
      ...(unknown
        ? { durationMs: Math.max(0, Date.now() - startedAtMs), outcome: 'unknown' as const }
        : failedAttempts(err, spec, startedAtMs)),
    };
    chain.toolResult(shown, visibility);
    observation = { callId: call.id, content: error, isError: true };
  } finally {
    if (llm) state.release(llm.hold);
  }
  return remembered(ctx, spec, key, callStep.stepId, shown, observation, narrowed);
}

/** A side-effect-free tool's observation is kept, so an identical call reuses it. */
function remembered(
  ctx: RunContext,
  spec: ToolSpec,
  key: string,
  stepId: string,
  shown: ToolResult,
  observation: Observation,
  narrowed?: NarrowedVisibility,
): Observation {
  if (toolEffects(spec) === 'none') {
    const { result, error, truncated, summarised } = shown;
    ctx.state.remember({
      key,
      stepId,
      content: observation.content,
      isError: observation.isError,
      result,
      ...(error ? { error } : {}),
      ...(truncated ? { truncated } : {}),
      ...(summarised ? { summarised } : {}),
      ...(narrowed ? { narrowed } : {}),
    });
  }
  return observation;
}

/**
 * A tool the run lists in `cache.tools` but whose results are never reused (a `once` or `llm`
 * tool): said once per run, as a visible thought, so the list is not silently ignored.
 */
function noteNeverCached(ctx: RunContext, spec: ToolSpec): void {
  const thought = `Not cached: ${spec.name} is in cache.tools, but ${uncacheableReason(spec)}; it runs on every call.`;
  if (ctx.chain.steps.some((s) => s.type === 'thinking' && s.thought === thought)) return;
  ctx.chain.thinking(thought, { level: 'full' });
}

/** The tenant's limits before a tool call (a wait, or a stop); when it stops the run, the call is recorded as never run first. */
async function tenantCallOrStop(ctx: RunContext, call: ToolUseBlock): Promise<void> {
  try {
    await ensureTenantTokens(ctx, 0);
  } catch (err) {
    if (err instanceof BudgetExhausted) notRun(ctx, call, err);
    throw err;
  }
}

/** A call a budget or tenant limit stopped before it ran: its result says so, as every call needs one. */
function notRun(ctx: RunContext, call: ToolUseBlock, err: BudgetExhausted): void {
  ctx.chain.toolResult(
    {
      correlationId: call.id,
      success: false,
      result: null,
      error: `Not run: ${err.message}`,
      durationMs: 0,
      outcome: 'not_run',
    },
    { level: ctx.input.visibility },
  );
}

/** The budget check of an `llm` tool call; when it stops the run, the call is recorded as never run first. */
async function affordOrStop(
  ctx: RunContext,
  call: ToolUseBlock,
  spec: ToolSpec,
  args: Record<string, unknown>,
): Promise<AffordedLlmCall> {
  try {
    return await affordLlmCall(ctx, spec, args);
  } catch (err) {
    if (err instanceof BudgetExhausted) notRun(ctx, call, err);
    throw err;
  }
}

/**
 * How often a failed call ran and for how long, all attempts and the waits between them: the
 * time in workflow time (deterministic), the count from the failure's details (the activity
 * sets them), else all of the retry policy's attempts when Temporal says they ran out.
 */
function failedAttempts(err: unknown, spec: ToolSpec, startedAtMs: number): { durationMs: number; attempts?: number } {
  const durationMs = Math.max(0, Date.now() - startedAtMs);
  if (!(err instanceof ActivityFailure)) return { durationMs };
  // Only failures the tool activity made carry `{ attempts }`; a tool's own ApplicationFailure has its own details.
  const ours =
    err.cause instanceof ApplicationFailure &&
    (err.cause.type === FailureType.ToolFailed || err.cause.type === FailureType.ToolRefused);
  const reported: unknown = ours ? (err.cause as ApplicationFailure).details?.[0] : undefined;
  const count =
    reported !== null && typeof reported === 'object' ? (reported as { attempts?: unknown }).attempts : undefined;
  if (typeof count === 'number' && Number.isInteger(count) && count > 0) return { durationMs, attempts: count };
  if (err.retryState === 'MAXIMUM_ATTEMPTS_REACHED' && spec.retry.maximumAttempts > 0)
    return { durationMs, attempts: spec.retry.maximumAttempts };
  return { durationMs };
}

/** A summary when the model gives one, else the text cut to the limit with a marker. */
async function summariseOrCut(
  ctx: RunContext,
  spec: ToolSpec,
  text: string,
  limit: number,
): Promise<{ text: string; summarised: boolean }> {
  try {
    const summary = await summariseObservation(ctx, spec, text, limit);
    if (summary) return { text: summary, summarised: true };
  } catch (err) {
    if (!isLoopSignal(err)) throw err;
  }
  return {
    text: `${text.slice(0, limit)}\n…[truncated: showing ${limit} of ${text.length} characters]`,
    summarised: false,
  };
}

/** The activities a call parked on an MCP task runs between its timers. */
function mcpTaskCalls(spec: ToolSpec, summary: string): McpTaskCalls {
  const options = mcpTaskCallOptions(spec, `poll ${summary}`.slice(0, 200));
  return {
    poll: (invocation, taskId) => activities.pollMcpTask.executeWithOptions(options, [invocation, taskId]),
    cancel: (toolName, taskId) =>
      activities.cancelMcpTask.executeWithOptions({ ...options, summary: `cancel ${summary}`.slice(0, 200) }, [
        toolName,
        taskId,
      ]),
  };
}

/**
 * How a tool's call runs: a local activity for a `local` tool, else an ordinary one. A `once`
 * tool gets one attempt: Temporal never runs it again by itself.
 */
function toolRunner(spec: ToolSpec, summary: string, once: boolean): RunTool {
  const retry = once ? { retry: { maximumAttempts: 1 } } : {};
  if (spec.local)
    return (invocation) =>
      localActivities.runTool.executeWithOptions({ ...localToolCallOptions(spec, summary), ...retry }, [invocation]);
  // Wait for the tool to acknowledge a cancel, so the chain can say whether it ran.
  const options = {
    ...toolCallOptions(spec, summary),
    ...retry,
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  };
  return (invocation) => activities.runTool.executeWithOptions(options, [invocation]);
}
