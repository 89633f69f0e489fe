import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import {
  FailureType,
  observationText,
  type Reconciliation,
  type ToolCheckInput,
  type ToolInvocation,
  type ToolOutput,
  type ToolSpec,
} from '../domain';
import { MAX_REFUSAL_CHARS, NarrowedVisibility } from '../domain/tools/tool-spec';
import { TOOL_HEARTBEAT_EVERY_MS } from '../domain/tools/tool-heartbeat';
import { narrowerRequest } from '../tools/narrowed-visibility';
import type { KnownTexts } from './conversation/known-texts';
import { ToolError } from '../tools/tool-error';
import { toolRefusal } from './tool-refusal';
import type { ToolContext, ToolDefinition } from '../tools/define-tool';
import type { ToolRegistry } from '../tools/tool-registry';
import { describeWithMcp, isNeedsInput, isParked, mcpTool, neededInput, parkedOn } from './mcp/mcp-activity-parts';
import type { McpTools } from './mcp/mcp-tools';
import { redactFailure, redactHeartbeat, redactToolResult, thrownText, type Redactor } from '../tools/redact-secrets';
import { uncacheableReason } from '../domain/planning/cache-request';
import { lookupCached, storeCached } from './cache/cached-result';
import type { RunCache } from './cache/run-cache';
import { createToolProgressReporter, type NumberedProgress, type ToolProgressReporter } from './tool-progress-reporter';
import type { ToolHeartbeat } from '../domain/tools/tool-progress';

export interface ToolActivityDeps {
  tools: ToolRegistry;
  redact: Redactor;
  /** MCP servers' tools, named `<server>__<tool>`. */
  mcp?: McpTools;
  /**
   * How often a running tool heartbeats, so a cancel reaches it and a dead worker is noticed.
   * Default 1 s (TOOL_HEARTBEAT_EVERY_MS).
   */
  heartbeatEveryMs?: number;
  /** Where results' texts are kept for the next model call to name (known texts). */
  texts?: KnownTexts;
  /** The worker's model allow-list, handed to every tool that calls a model (ToolContext.isModelAllowed). */
  isModelAllowed?: ToolContext['isModelAllowed'];
  /** Where results of tools a run caches (`cache.tools`) are kept across runs; without it nothing is cached. */
  cache?: RunCache;
  /** Receives each published `ctx.progress(...)` update, bounded and redacted (never stored in history). */
  onToolProgress?: (progress: ToolProgressEvent) => void;
}

/** A tool call's progress as a worker publishes it: which run, call step and attempt, and the update. */
export type ToolProgressEvent = NumberedProgress & {
  workflowId: string;
  activityId: string;
  attempt: number;
  /** The run's tool call step (the step id inside the call's idempotency key). */
  callStepId: string;
  toolName: string;
};

export function createToolActivities({
  tools,
  redact,
  mcp,
  heartbeatEveryMs = TOOL_HEARTBEAT_EVERY_MS,
  texts,
  isModelAllowed,
  cache,
  onToolProgress,
}: ToolActivityDeps) {
  return {
    /** Specs of the run's tools; recorded in history, so a replay sees the tool set the run began with. */
    async describeTools(names?: string[]): Promise<ToolSpec[]> {
      let specs: ToolSpec[];
      try {
        specs = mcp ? await describeWithMcp(tools, mcp, names) : tools.specs(names);
      } catch (err) {
        // An MCP server that is down is retried; anything else (an unknown name, a bad schema) is final.
        if (err instanceof Error && err.name === 'McpUnavailableError')
          throw ApplicationFailure.create({
            type: FailureType.ToolFailed,
            message: redactText(err.message),
            nonRetryable: false,
          });
        throw ApplicationFailure.create({
          type: FailureType.ToolNotRegistered,
          message: redactText((err as Error).message),
          nonRetryable: true,
        });
      }
      const twice = firstRepeatedName(specs);
      if (twice)
        throw ApplicationFailure.create({
          type: FailureType.ToolNotRegistered,
          message: `The tool "${twice}" is named twice (a worker tool and an MCP tool, or twice in the run's list).`,
          nonRetryable: true,
        });
      return withRunAlternatives(specs);
    },

    /**
     * Runs one tool call. Errors thrown by the tool are retried under the tool's own retry policy
     * (an `ApplicationFailure` keeps its own decision; a `ToolError` with `retryable: false` is
     * final, `ToolRefused`); everything that fails after `execute` returned is non-retryable
     * (`ToolResultUnusable`): running the tool again would repeat its side effects for a result
     * that would fail the same way. Failures made here carry the tool's own stack (where its
     * `execute` threw) and `{ attempts }` as details. Nothing leaves unredacted: results, errors
     * (message, stack, details, causes) and heartbeat details.
     */
    async runTool(call: ToolInvocation): Promise<ToolOutput> {
      const tool = tools.get(call.toolName) ?? (mcp?.owns(call.toolName) ? mcpTool(mcp, call) : undefined);
      if (!tool) {
        const message = `Tool "${call.toolName}" is not registered on this worker.`;
        throw ApplicationFailure.create({ type: FailureType.ToolNotRegistered, message, nonRetryable: true });
      }
      const ctx = Context.current();
      const args = tool.input.safeParse(call.arguments);
      if (!args.success) {
        const message = redactText(`Invalid arguments for ${tool.name}: ${args.error.message}`);
        throw ApplicationFailure.create({ type: FailureType.ToolFailed, message, nonRetryable: true });
      }
      const started = Date.now();
      const own = tools.get(call.toolName);
      // Validated once, before the first attempt; a retry is of a call already allowed.
      if (own?.validate && !call.validated && ctx.info.attempt === 1) {
        const refused = await refusal(own, args.data, toolContext(call.idempotencyKey));
        if (refused) return { result: null, truncated: false, durationMs: Date.now() - started, attempts: 1, refused };
      }
      // The worker checks its own definition too: a `once` or `llm` tool is never answered from the cache.
      const cacheReq = cache && call.cache && !(own && uncacheableReason(own)) ? call.cache : undefined;
      // Keyed by what the tool would be asked and how much of its result the run keeps.
      const cacheRequest = { arguments: args.data, maxResultChars: call.maxResultChars };
      if (cacheReq) {
        const found = lookupCached(cache!, cacheReq, 'tool', tool.name, cacheRequest);
        const stored = found && storedToolResult(found.value);
        if (found && stored) {
          if (texts && stored.result !== undefined) texts.remember(observationText(stored.result));
          const durationMs = Date.now() - started;
          return { ...stored, durationMs, attempts: ctx.info.attempt, cacheHit: found.hit };
        }
      }
      let value: unknown;
      const narrowing = { request: undefined as NarrowedVisibility | undefined };
      const progress = progressReporter(call, own?.sensitiveFields ?? []);
      // Cancellation reaches an activity only through heartbeats, and their absence tells Temporal the
      // worker died: send them while the tool works (none for a call shorter than the interval). They
      // carry the latest progress, so a follower reading pending activities sees it at no extra cost.
      const stepId = callStepIdOf(call, ctx.info.workflowExecution?.workflowId ?? '');
      const keepAlive = setInterval(() => {
        const latest = progress.latest();
        const beat: ToolHeartbeat | undefined =
          latest && stepId ? { progress: latest, stepId, toolName: call.toolName } : undefined;
        ctx.heartbeat(beat);
      }, heartbeatEveryMs);
      try {
        value = await tool.execute(args.data, toolContext(call.idempotencyKey, narrowing, progress));
      } catch (err) {
        if (err instanceof ApplicationFailure) throw redactFailure(err, redact);
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
        const details = [{ attempts: ctx.info.attempt }];
        if (ToolError.is(err) && !err.retryable)
          throw toolRefusal(tool.name, redactText(thrownText(err)), {
            workflowId: ctx.info.workflowExecution?.workflowId,
            details,
          });
        // Unexpected: retried, and logged by the SDK with the stack of the user's `execute`.
        const failure = ApplicationFailure.create({
          type: FailureType.ToolFailed,
          message: redactText(`${tool.name} failed: ${thrownText(err)}`),
          nonRetryable: false,
          details,
        });
        withStackOf(failure, err, redactText);
        throw failure;
      } finally {
        clearInterval(keepAlive);
        progress.close();
      }
      try {
        if (isNeedsInput(value))
          return {
            result: null,
            truncated: false,
            durationMs: Date.now() - started,
            attempts: ctx.info.attempt,
            needsInput: neededInput(value, redact),
          };
        if (isParked(value))
          return {
            result: null,
            truncated: false,
            durationMs: Date.now() - started,
            attempts: ctx.info.attempt,
            parked: parkedOn(value, redact),
          };
        const { result, truncated } = redactToolResult(value, call.maxResultChars, redact);
        const { attempt, scheduledTimestampMs } = ctx.info;
        // From the second attempt on, the time covers the earlier attempts and the waits between them.
        const durationMs = attempt > 1 ? Math.max(0, Date.now() - scheduledTimestampMs) : Date.now() - started;
        // The text the model will receive, as the workflow makes it, so the next call can name it.
        if (texts && result !== undefined) texts.remember(observationText(result));
        // Only a result the tool returned is kept: never an error, a refusal or a request for input.
        if (cacheReq) {
          const fromRun = ctx.info.workflowExecution?.workflowId ?? ctx.info.activityId;
          const stored = { result, truncated, ...(narrowing.request ? { visibility: narrowing.request } : {}) };
          storeCached(cache!, cacheReq, 'tool', tool.name, cacheRequest, stored, fromRun);
        }
        const visibility = narrowing.request;
        return { result, truncated, durationMs, attempts: attempt, ...(visibility ? { visibility } : {}) };
      } catch (err) {
        const message = redactText(`${tool.name} ran, but its result could not be used: ${thrownText(err)}`);
        throw ApplicationFailure.create({ type: FailureType.ToolResultUnusable, message, nonRetryable: true });
      }
    },

    /**
     * Runs a tool's `validate` hook alone: for a call that needs approval, before a person is
     * asked. `{ refused }` with the reason, or `{}`. Not retried past a thrown hook: that refuses.
     */
    async validateToolCall(call: ToolCheckInput): Promise<{ refused?: string }> {
      const tool = tools.get(call.toolName);
      if (!tool?.validate) return {};
      const args = tool.input.safeParse(call.arguments);
      if (!args.success) return { refused: redactText(`Invalid arguments for ${tool.name}: ${args.error.message}`) };
      const refused = await refusal(tool, args.data, toolContext(call.idempotencyKey));
      return refused ? { refused } : {};
    },

    /**
     * Asks a `once` tool's `reconcile` hook whether a lost attempt's effect happened. A hook that
     * throws or answers something else fails this activity for good: the workflow then asks a person.
     */
    async reconcileTool(call: ToolCheckInput): Promise<Reconciliation> {
      const tool = tools.get(call.toolName);
      if (!tool?.reconcile) {
        const message = `Tool "${call.toolName}" has no reconcile hook on this worker.`;
        throw ApplicationFailure.create({ type: FailureType.ToolNotRegistered, message, nonRetryable: true });
      }
      let answer: unknown;
      const narrowing = { request: undefined as NarrowedVisibility | undefined };
      try {
        answer = await tool.reconcile(call.idempotencyKey, toolContext(call.idempotencyKey, narrowing));
      } catch (err) {
        const message = redactText(`${tool.name}'s reconcile failed: ${thrownText(err)}`);
        throw ApplicationFailure.create({ type: FailureType.ToolFailed, message, nonRetryable: true });
      }
      const happened =
        answer !== null && typeof answer === 'object' ? (answer as { happened?: unknown }).happened : undefined;
      if (typeof happened !== 'boolean') {
        const message = `${tool.name}'s reconcile answered neither { happened: true } nor { happened: false }.`;
        throw ApplicationFailure.create({ type: FailureType.ToolResultUnusable, message, nonRetryable: true });
      }
      if (!happened || !('result' in (answer as object))) return { happened };
      try {
        const { result, truncated } = redactToolResult(
          (answer as { result: unknown }).result,
          call.maxResultChars,
          redact,
        );
        const visibility = narrowing.request;
        return { happened, result, ...(truncated ? { truncated } : {}), ...(visibility ? { visibility } : {}) };
      } catch (err) {
        const message = redactText(`${tool.name}'s reconciled result could not be used: ${thrownText(err)}`);
        throw ApplicationFailure.create({ type: FailureType.ToolResultUnusable, message, nonRetryable: true });
      }
    },
  };

  /**
   * What a hook of the tool receives: the call's key, the activity's cancel signal and heartbeats,
   * and where a request to narrow its result is kept (`narrowing`; absent for `validate`, which has no result).
   */
  function toolContext(
    idempotencyKey: string,
    narrowing?: { request?: NarrowedVisibility },
    progress?: ToolProgressReporter,
  ): ToolContext {
    const ctx = Context.current();
    return {
      idempotencyKey,
      signal: ctx.cancellationSignal,
      heartbeat: (details) => ctx.heartbeat(redactHeartbeat(details, redact)),
      progress: (update) => progress?.report(update),
      narrowVisibility: (level, summary) => {
        if (narrowing) narrowing.request = narrowerRequest(narrowing.request, level, summary, redactText);
      },
      ...(isModelAllowed ? { isModelAllowed } : {}),
    };
  }

  /** This attempt's progress: published to `onToolProgress` as the run's call step (see ToolProgressReporter). */
  function progressReporter(call: ToolInvocation, sensitiveFields: readonly string[]): ToolProgressReporter {
    const { activityId, attempt, workflowExecution } = Context.current().info;
    const workflowId = workflowExecution?.workflowId ?? '';
    const callStepId = callStepIdOf(call, workflowId);
    const publish =
      onToolProgress && workflowId && callStepId
        ? (update: NumberedProgress) =>
            onToolProgress({ ...update, workflowId, activityId, attempt, callStepId, toolName: call.toolName })
        : () => {};
    return createToolProgressReporter(publish, redact, sensitiveFields);
  }

  /**
   * The `validate` hook's refusal, redacted and bounded, or undefined when it allows the call.
   * Fail-closed: a hook that throws, or answers something other than a string or nothing, refuses.
   */
  async function refusal(tool: ToolDefinition, args: unknown, context: ToolContext): Promise<string | undefined> {
    let answer: unknown;
    try {
      answer = await tool.validate!(args, context);
    } catch (err) {
      if (context.signal.aborted) throw context.signal.reason;
      answer = `its validate hook failed: ${thrownText(err)}`;
    }
    if (answer === undefined || answer === null) return undefined;
    const text = typeof answer === 'string' ? answer.trim() : '';
    const reason = text || 'its validate hook gave no readable reason';
    return redactText(reason.length > MAX_REFUSAL_CHARS ? `${reason.slice(0, MAX_REFUSAL_CHARS)}…` : reason);
  }

  function redactText(text: string): string {
    try {
      return String(redact(text));
    } catch {
      return '[message could not be redacted]';
    }
  }
}

/**
 * Gives `failure` the stack frames of what the tool threw, so the worker's log and the Web UI
 * point at the line of the user's `execute`, not at this file. Redacted like the message.
 */
function withStackOf(failure: Error, thrown: unknown, redactText: (text: string) => string): void {
  let stack: unknown;
  try {
    stack = thrown instanceof Error ? thrown.stack : undefined;
  } catch {
    stack = undefined;
  }
  if (typeof stack !== 'string') return;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  if (frames.length === 0) return;
  failure.stack = redactText(`${failure.name}: ${failure.message}\n${frames.join('\n')}`);
}

/** A stored tool result as runTool stored it, or undefined for anything else (then the tool runs). */
function storedToolResult(
  value: unknown,
): { result: unknown; truncated: boolean; visibility?: NarrowedVisibility } | undefined {
  if (value === null || typeof value !== 'object' || !('result' in value)) return undefined;
  const { result, truncated, visibility } = value as { result: unknown; truncated?: unknown; visibility?: unknown };
  if (typeof truncated !== 'boolean') return undefined;
  // The tool narrowed the result it stored: a reuse is shown no wider (an unreadable request hides it).
  if (visibility === undefined) return { result, truncated };
  const narrowed = NarrowedVisibility.safeParse(visibility);
  return { result, truncated, visibility: narrowed.success ? narrowed.data : { level: 'hidden' } };
}

/** Each spec's alternatives, only those the run's tool set has: an observation never suggests a tool the model cannot call. */
function withRunAlternatives(specs: ToolSpec[]): ToolSpec[] {
  const names = new Set(specs.map((s) => s.name));
  return specs.map((spec) => {
    if (!spec.alternatives) return spec;
    const { alternatives, ...rest } = spec;
    const present = alternatives.filter((name) => names.has(name));
    return present.length ? { ...rest, alternatives: present } : rest;
  });
}

/** The first name two specs share (a worker tool and an MCP tool, or a tool listed twice), if any. */
function firstRepeatedName(specs: readonly ToolSpec[]): string | undefined {
  const seen = new Set<string>();
  for (const { name } of specs) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** The call's step id: its idempotency key is `<workflow id>:<step id>` (tool-call.ts); empty when it is not. */
function callStepIdOf(call: ToolInvocation, workflowId: string): string {
  const prefix = `${workflowId}:`;
  return workflowId && call.idempotencyKey.startsWith(prefix) ? call.idempotencyKey.slice(prefix.length) : '';
}
