import { z } from 'zod';
import type { ApprovalPolicy, ModelProviderName, ToolRetry, ToolType, VisibilityLevel } from '../shared';
import { defaultApprovalPolicy } from '../shared/approval/approval-policy';
import { policyProblem } from '../shared/approval/rule-pattern';

/** Anthropic and OpenAI both accept tool names of this shape. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ToolContext {
  /** Workflow id + step id: identical on every retry of one call. Use it to dedupe side effects. */
  idempotencyKey: string;
  /** Aborts when the activity is cancelled or times out. */
  signal: AbortSignal;
  /**
   * Sends progress details with a heartbeat (each one sent is a billable action). Not needed to
   * stay alive: the worker heartbeats every call once a second against a 5 s heartbeat timeout.
   */
  heartbeat(details?: unknown): void;
  /**
   * The worker's model allow-list (`createAgentWorker({ isModelAllowed })`); absent when the
   * worker has none. A tool that calls a model asks it first, so no tool reaches a model the
   * organisation left out.
   */
  isModelAllowed?(provider: ModelProviderName, model: string): boolean;
}

export interface ToolDefinition<Input extends z.ZodType = z.ZodType, Output = unknown> {
  readonly name: string;
  readonly type: ToolType;
  readonly description: string;
  readonly input: Input;
  readonly timeoutMs: number;
  readonly retry: ToolRetry;
  readonly visibility: VisibilityLevel;
  readonly readOnly: boolean;
  /** Runs as a Temporal local activity (see ToolOptions.local). */
  readonly local: boolean;
  readonly maxResultChars?: number;
  readonly approval: ApprovalPolicy;
  readonly approverRoles: readonly string[];
  readonly requiredRoles: readonly string[];
  readonly sensitiveFields: readonly string[];
  readonly summaryTemplate?: string;
  /** The models the tool may call, so a worker with a model allow-list refuses it at start rather than at a call. */
  readonly models?: ReadonlyArray<{ readonly provider: ModelProviderName; readonly model: string }>;
  execute(args: z.output<Input>, context: ToolContext): Promise<Output> | Output;
}

export interface ToolOptions<Input extends z.ZodType, Output> {
  name: string;
  /** Default `external`. */
  type?: ToolType;
  description: string;
  input: Input;
  /** Start-to-close limit of one attempt. Default 30 s (10 s for a local tool). */
  timeoutMs?: number;
  /** Default: 3 attempts, 1 s apart, doubling. */
  retry?: Partial<ToolRetry>;
  /** Default `full`. */
  visibility?: VisibilityLevel;
  /** No side effects (default false): a repeated identical call reuses the earlier observation. */
  readOnly?: boolean;
  /** Cut results longer than this many characters; the run's own limit applies too. */
  maxResultChars?: number;
  /**
   * Run as a Temporal local activity (default false): in the worker that runs the workflow task,
   * with no round trip through the server, so an instant tool costs milliseconds less per call.
   * For short tools only (timeoutMs at most 10 s): a local activity cannot heartbeat (a cancel
   * reaches it only when the workflow task ends) and is retried by the worker inside the run.
   */
  local?: boolean;
  /**
   * When a person must approve a call: `never`, `always`, or `{ anyOf: rules }` over the arguments.
   * Default: `always` for write-like tools (not read-only, type `file_system` or `database`), else `never`.
   */
  approval?: ApprovalPolicy;
  /** Roles allowed to approve; default anyone. */
  approverRoles?: string[];
  /** The run's caller must hold one of these roles; default none required. */
  requiredRoles?: string[];
  /** Argument and result fields (dotted paths) redacted in every view but the auditor's. */
  sensitiveFields?: string[];
  /** The line shown at `summary` visibility, e.g. "Queried {table}, {result.length} rows". */
  summaryTemplate?: string;
  /** The models the tool calls, if any: a worker whose model allow-list leaves one out refuses to start. */
  models?: ToolDefinition['models'];
  execute(args: z.output<Input>, context: ToolContext): Promise<Output> | Output;
}

export class InvalidToolDefinitionError extends Error {
  override readonly name = 'InvalidToolDefinitionError';
}

/** True when the schema's JSON Schema is an object: the only input shape the model APIs accept. */
function isObjectSchema(input: z.ZodType): boolean {
  try {
    return (z.toJSONSchema(input, { io: 'input' }) as { type?: unknown }).type === 'object';
  } catch {
    return false;
  }
}

/** Longest attempt a local tool may take: a workflow task waits on it, and it cannot heartbeat. */
export const MAX_LOCAL_TIMEOUT_MS = 10_000;

/** Defines a tool once: the model sees its JSON Schema, the workflow validates, the worker runs it. */
export function defineTool<Input extends z.ZodType, Output>(
  options: ToolOptions<Input, Output>,
): ToolDefinition<Input, Output> {
  if (!TOOL_NAME.test(options.name)) {
    throw new InvalidToolDefinitionError(
      `Tool name "${options.name}" must match ${TOOL_NAME} (letters, digits, _ and -).`,
    );
  }
  if (!isObjectSchema(options.input)) {
    throw new InvalidToolDefinitionError(
      `Tool "${options.name}": its input must be an object schema (z.object(...)); the model APIs take tool arguments as one JSON object.`,
    );
  }
  const timeoutMs = options.timeoutMs ?? (options.local ? MAX_LOCAL_TIMEOUT_MS : 30_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new InvalidToolDefinitionError(`Tool "${options.name}": timeoutMs must be a positive integer.`);
  }
  if (options.local && timeoutMs > MAX_LOCAL_TIMEOUT_MS) {
    throw new InvalidToolDefinitionError(
      `Tool "${options.name}": a local tool must finish within ${MAX_LOCAL_TIMEOUT_MS} ms (timeoutMs ${timeoutMs}); a slower one needs heartbeats, so make it an ordinary activity.`,
    );
  }
  const problem = policyProblem(options.approval);
  if (problem)
    throw new InvalidToolDefinitionError(
      `Tool "${options.name}": ${problem}. A rule that can never be read would ask for approval on every call.`,
    );
  return Object.freeze({
    name: options.name,
    type: options.type ?? 'external',
    description: options.description,
    input: options.input,
    timeoutMs,
    retry: { maximumAttempts: 3, initialIntervalMs: 1_000, backoffCoefficient: 2, ...options.retry },
    visibility: options.visibility ?? 'full',
    readOnly: options.readOnly ?? false,
    local: options.local ?? false,
    ...(options.maxResultChars ? { maxResultChars: options.maxResultChars } : {}),
    approval:
      options.approval ??
      defaultApprovalPolicy({ type: options.type ?? 'external', readOnly: options.readOnly ?? false }),
    approverRoles: options.approverRoles ?? [],
    requiredRoles: options.requiredRoles ?? [],
    sensitiveFields: options.sensitiveFields ?? [],
    ...(options.summaryTemplate ? { summaryTemplate: options.summaryTemplate } : {}),
    ...(options.models ? { models: options.models.map((m) => ({ provider: m.provider, model: m.model })) } : {}),
    execute: options.execute,
  });
}
