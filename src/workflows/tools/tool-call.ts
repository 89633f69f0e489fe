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
  type ToolInvocation,
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
import { Pending, type Later, type Step } from '../core/pending';
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
 *
 * Most calls wait for their activity and nothing else: then the result is the activity's promise
 * with what is made of it still to come (pending.ts), which the turn maps further and the loop
 * awaits once (each promise is a stack trace the SDK takes). A call that waits for more (the
 * tenant's limits, an `llm` tool's budget, a `once` tool's settling) is an async function.
 */
export function runToolCall(
  ctx: RunContext,
  call: ToolUseBlock,
  check: ValidCall,
  /** Already recorded, e.g. when the call waited for approval. */
  recordedCall?: ReasoningStep,
  extras: ToolCallExtras = {},
): Step<Observation> {
  const run = new ToolCallRun(ctx, call, check, recordedCall, extras);
  const cached = run.cached();
  if (cached) return Promise.resolve(cached);
  ctx.state.countToolCall();
  ctx.progress.details();
  // The tenant's calls per minute and spend per hour: most calls hold a leased call already (no wait).
  if (needsTenantTokens(ctx, 0) || check.spec.type === 'llm' || toolEffects(check.spec) === 'once')
    return run.afterWaits();
  ctx.state.spendTenantCall();
  return run.direct();
}

/** One call's run: what it records, and how each of its outcomes becomes an observation. */
class ToolCallRun {
  private readonly spec: ToolSpec;
  private readonly args: Record<string, unknown>;
  private readonly key: string;
  private readonly callStep: ReasoningStep;
  private readonly recordedArgs: Record<string, unknown>;
  private readonly visibility: Visibility;
  private limit = 0;
  private summary = '';
  private startedAtMs = 0;
  /** A model call made by a tool: paid for by the run's ledger, so the budget must afford it first. */
  private llm: AffordedLlmCall | undefined;
  private ran = false;
  /** The tool's own request to show its result less widely; never wider than configured. */
  private narrowed: NarrowedVisibility | undefined;
  /** Whether the result came from a pollMcpTask activity rather than runTool's own result. */
  private fromTask = false;

  constructor(
    private readonly ctx: RunContext,
    private readonly call: ToolUseBlock,
    check: ValidCall,
    recordedCall: ReasoningStep | undefined,
    private readonly extras: ToolCallExtras,
  ) {
    this.spec = check.spec;
    this.args = check.args;
    this.key = callKey(this.spec.name, this.args);
    this.callStep = recordedCall ?? recordToolCall(ctx.chain, ctx.input, this.spec, call.id, this.args, check.routed);
    this.recordedArgs = auditedArguments(this.spec, this.args);
    this.visibility = this.shownAs();
  }

  /** A repeat of a call without effects: the earlier observation, recorded as reused. */
  cached(): Observation | undefined {
    const { state } = this.ctx;
    const earlier = toolEffects(this.spec) === 'none' ? state.cached(this.key) : undefined;
    if (!earlier) return undefined;
    state.countCachedCall();
    const { result, error, truncated, summarised, narrowed } = earlier;
    this.record(
      {
        correlationId: this.call.id,
        success: !earlier.isError,
        result,
        durationMs: 0,
        cachedFrom: earlier.stepId,
        ...(error ? { error } : {}),
        ...(truncated ? { truncated } : {}),
        ...(summarised ? { summarised } : {}),
      },
      narrowedByTool(this.spec, this.shownAs(result), narrowed),
    );
    return { callId: this.call.id, content: earlier.content, isError: earlier.isError };
  }

  /** The common call: its activity, and what is made of its result or failure. */
  direct(): Step<Observation> {
    this.begin();
    let started: { source: Promise<ToolOutput>; runner: RunTool; invocation: ToolInvocation };
    try {
      const { runner, invocation } = this.invocation();
      started = { source: runner(invocation), runner, invocation };
    } catch (err) {
      return settleNow(() => this.failed(err));
    }
    const { source, runner, invocation } = started;
    return Pending.of(
      source,
      (out) => this.settled(out, false, runner, invocation),
      (err) => this.failed(err),
    );
  }

  /** A call that waits before or around its activity: the tenant's limits, an `llm` tool's budget, a `once` tool. */
  async afterWaits(): Promise<Observation> {
    if (needsTenantTokens(this.ctx, 0)) await tenantCallOrStop(this.ctx, this.call);
    this.ctx.state.spendTenantCall();
    this.begin();
    this.llm = this.spec.type === 'llm' ? await affordOrStop(this.ctx, this.call, this.spec, this.args) : undefined;
    try {
      let first: { out: ToolOutput; settled: boolean; runner: RunTool; invocation: ToolInvocation };
      try {
        const { runner, invocation } = this.invocation();
        const { call, spec, args, callStep } = this;
        const once =
          toolEffects(spec) === 'once'
            ? await runOnce(
                this.ctx,
                { call, spec, args, stepId: callStep.stepId, gate: this.extras.gate },
                runner,
                invocation,
              )
            : { out: await runner(invocation), settled: false };
        first = { ...once, runner, invocation };
      } catch (err) {
        return this.failed(err);
      }
      return await this.settled(first.out, first.settled, first.runner, first.invocation);
    } finally {
      if (this.llm) this.ctx.state.release(this.llm.hold);
    }
  }

  private begin(): void {
    this.limit = resultLimit(this.ctx.input, this.spec);
    this.summary = `${this.spec.name} ${JSON.stringify(this.args)}`.slice(0, 200);
    this.startedAtMs = Date.now();
  }

  private invocation(): { runner: RunTool; invocation: ToolInvocation } {
    const { ctx, spec, llm, limit } = this;
    const { input } = ctx;
    const room = llm
      ? llmResultRoom(spec, limit, llm.calls)
      : input.summariseLargeResults
        ? Math.max(limit, SUMMARY_SOURCE_CHARS)
        : limit;
    const cache = toolCacheRequest(input, spec);
    if (!cache && input.cache?.tools.includes(spec.name)) noteNeverCached(ctx, spec);
    const runner = toolRunner(spec, this.summary, toolEffects(spec) === 'once');
    const invocation = {
      toolName: spec.name,
      arguments: llm?.args ?? this.args,
      idempotencyKey: `${ctx.workflowId}:${this.callStep.stepId}`,
      maxResultChars: room,
      ...(this.extras.validated ? { validated: this.extras.validated } : {}),
      // Only for a tool the run caches (`cache.tools`): other calls record what they always did.
      ...(cache ? { cache } : {}),
    };
    return { runner, invocation };
  }

  /** The activity's output as an observation; whatever fails in reading it is the call's failure. */
  private settled(out: ToolOutput, settled: boolean, runner: RunTool, invocation: ToolInvocation): Later<Observation> {
    try {
      // An MCP server answered with a task, or the tool asked for input: the run waits (default runs never do).
      const later =
        out.parked || out.needsInput ? this.afterInput(out, settled, runner, invocation) : this.output(out, settled);
      return later instanceof Promise ? later.catch((err: unknown) => this.failed(err)) : later;
    } catch (err) {
      return this.failed(err);
    }
  }

  /** A parked call polled until its task ends, and a request for input answered, before the output is read. */
  private async afterInput(
    first: ToolOutput,
    settled: boolean,
    runner: RunTool,
    invocation: ToolInvocation,
  ): Promise<Observation> {
    const tasks = mcpTaskCalls(this.spec, this.summary);
    let out = first;
    this.fromTask = out.parked !== undefined;
    if (out.parked) out = await waitForMcpTask(tasks, invocation, out.parked, this.startedAtMs);
    const waitingRunner: RunTool = async (again) => {
      const next = await runner(again);
      this.fromTask = next.parked !== undefined;
      return next.parked ? waitForMcpTask(tasks, again, next.parked, Date.now()) : next;
    };
    if (out.needsInput)
      out = await runToolActivity(this.ctx, this.extras.desk, this.call.id, waitingRunner, invocation, out);
    return this.output(out, settled);
  }

  private output(out: ToolOutput, settled: boolean): Later<Observation> {
    const { ctx, call, spec, limit } = this;
    if (out.refused !== undefined) {
      // The tool's validate hook refused: it did not run, and the model reads why.
      const error = withAlternatives(spec, `Not run: ${spec.name} refused these arguments: ${out.refused}`);
      const shown = notRunResult(call.id, error);
      this.record(shown, this.visibility);
      return this.remembered(shown, { callId: call.id, content: error, isError: true });
    }
    this.ran = true;
    this.narrowed = out.visibility;
    if (this.llm) {
      const taken = takeLlmAnswer(ctx, call.id, out, limit, spec.name);
      // A consensus: each model's call is its own llm step pair, before the tool call's result.
      for (const sub of taken.calls ?? []) {
        ctx.chain.toolCall(sub.call, this.callStep.visibility, { model: sub.meta.model });
        this.record(sub.result, this.resultShownAs(sub.result.result), sub.meta);
      }
      this.record(taken.shown, this.resultShownAs(taken.shown.result), taken.meta);
      return this.remembered(taken.shown, taken.observation);
    }
    const text = observationText(out.result);
    if (text.length > limit && ctx.input.summariseLargeResults)
      return summariseOrCut(ctx, spec, text, limit).then((condensed) => this.kept(out, settled, text, condensed));
    return this.kept(out, settled, text, undefined);
  }

  /** A result that ran: recorded, and (unless summarised or settled) known to the worker that holds its text. */
  private kept(
    out: ToolOutput,
    settled: boolean,
    text: string,
    condensed: { text: string; summarised: boolean } | undefined,
  ): Observation {
    const { ctx, call, spec } = this;
    const flags = condensed?.summarised ? { summarised: true } : out.truncated || condensed ? { truncated: true } : {};
    const shown: ToolResult = {
      correlationId: call.id,
      success: true,
      result: condensed?.text ?? out.result,
      durationMs: out.durationMs,
      ...(out.attempts ? { attempts: out.attempts } : {}),
      ...flags,
      // A lost `once` call that reconcile or a person said took effect.
      ...(settled ? { outcome: 'done' as const } : {}),
    };
    // A result the worker had stored from an earlier run: the step says which run and how old it is.
    // The model reads the same text as when the tool ran, so the conversation (and model caching) stays the same.
    const step = this.record(
      shown,
      this.resultShownAs(shown.result),
      out.cacheHit ? { cacheHit: out.cacheHit } : undefined,
    );
    // Not for a result reconcile or a person gave: no runTool result holds it.
    if (!condensed && !spec.local && !settled) {
      // The text is this activity's result in the history: the run's result may name it (a step the chain keeps whole).
      // Readers put it back from runTool's result (restore-observations.ts): not from a task's poll.
      if ((spec.auditLevel ?? 'full') === 'full' && !this.fromTask) ctx.resultsInHistory.add(step.stepId);
      // The worker that ran it keeps the text, so the next model call can name it instead of recording it again.
      ctx.conversations.returnedByWorker(text);
    }
    return this.remembered(shown, { callId: call.id, content: condensed?.text ?? text, isError: false });
  }

  /** A failed call as its observation; a cancellation is recorded, then goes on, as do the loop's own signals. */
  private failed(err: unknown): Observation {
    const { call, spec, args } = this;
    if (isCancellation(err)) {
      const error = this.ran
        ? 'The tool ran, but the run was cancelled before its result was used.'
        : 'Cancelled while running; the tool acknowledged the cancellation.';
      this.record(
        {
          correlationId: call.id,
          success: false,
          result: null,
          error,
          durationMs: 0,
          outcome: this.ran ? 'done' : 'cancelled',
        },
        this.visibility,
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
    const shown: ToolResult = {
      correlationId: call.id,
      success: false,
      result: null,
      error,
      ...(unknown
        ? { durationMs: Math.max(0, Date.now() - this.startedAtMs), outcome: 'unknown' as const }
        : failedAttempts(err, spec, this.startedAtMs)),
    };
    this.record(shown, this.visibility);
    return this.remembered(shown, { callId: call.id, content: error, isError: true });
  }

  private shownAs(result?: unknown): Visibility {
    return toolStepVisibility(this.ctx.input, this.spec, this.recordedArgs, auditedValue(this.spec, result));
  }

  private resultShownAs(result: unknown): Visibility {
    return narrowedByTool(this.spec, this.shownAs(result), this.narrowed);
  }

  /** Every result of this call is recorded at the tool's audit level. */
  private record(shown: ToolResult, shownTo: Visibility, meta?: ModelMeta | { cacheHit: CacheHit }) {
    return this.ctx.chain.toolResult(auditedResult(this.spec, shown), shownTo, meta);
  }

  /** A side-effect-free tool's observation is kept, so an identical call reuses it. */
  private remembered(shown: ToolResult, observation: Observation): Observation {
    if (toolEffects(this.spec) === 'none') {
      const { result, error, truncated, summarised } = shown;
      const { narrowed } = this;
      this.ctx.state.remember({
        key: this.key,
        stepId: this.callStep.stepId,
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
}

/** The result of a call that did not run, with why. */
export function notRunResult(correlationId: string, error: string): ToolResult {
  return { correlationId, success: false, result: null, error, durationMs: 0, outcome: 'not_run' };
}

/** What `f` returns, or throws, as a settled promise. */
function settleNow<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (err) {
    return Promise.reject(err);
  }
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
