import { z } from 'zod';
import type {
  ApprovalPolicy,
  AuditLevel,
  ModelChoice,
  ModelProviderName,
  ToolEffects,
  ToolRetry,
  ToolType,
  VisibilityLevel,
} from '../domain';
import type { ToolProgressUpdate } from '../domain/tools/tool-progress';
import { MAX_ALTERNATIVES, MAX_RETURNS_CHARS } from '../domain/tools/tool-spec';
import { defaultApprovalPolicy } from '../domain/approval/approval-policy';
import { policyProblem } from '../domain/approval/rule-pattern';

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
  /**
   * Shows this call's result step less widely than the tool's and the run's settings: `summary`
   * (with this line, redacted and cut to 200 characters) or `hidden` (the auditor's view only).
   * Never wider: a level no narrower than the configured one is ignored, and of several calls the
   * narrowest counts. Honoured from `execute` and `reconcile`; the model still reads the result.
   */
  narrowVisibility(level: 'summary' | 'hidden', summary?: string): void;
  /**
   * Tells watchers how the call is going: a line, or `{ message?, fraction?, data? }` (fraction
   * 0–1, data a little JSON). Redacted like results, bounded (500 characters, 2 KB of data, 4 a
   * second with the latest winning, 500 an attempt) and never recorded in the chain: it rides on
   * the worker's own keep-alive heartbeats and the run's event stream. Honoured from `execute`.
   */
  progress(update: ToolProgressUpdate): void;
}

/** A `validate` hook's answer: a reason to refuse the call, or nothing to let it run. */
export type ToolValidation = string | undefined | void;

/** A `reconcile` hook's answer: whether a lost attempt's effect happened, with its result when known. */
export type Reconciled<Output> = { happened: true; result?: Output } | { happened: false };

export interface ToolDefinition<Input extends z.ZodType = z.ZodType, Output = unknown> {
  readonly name: string;
  readonly type: ToolType;
  readonly description: string;
  readonly input: Input;
  readonly timeoutMs: number;
  readonly retry: ToolRetry;
  readonly visibility: VisibilityLevel;
  readonly effects: ToolEffects;
  /** What the tool returns, as the prompts show it (a zod schema already rendered to JSON Schema text). */
  readonly returns?: string;
  readonly auditLevel: AuditLevel;
  readonly alternatives: readonly string[];
  /** Runs as a Temporal local activity (see ToolOptions.local). */
  readonly local: boolean;
  readonly maxResultChars?: number;
  readonly approval: ApprovalPolicy;
  readonly approverRoles: readonly string[];
  readonly requiredRoles: readonly string[];
  readonly sensitiveFields: readonly string[];
  readonly summaryTemplate?: string;
  /**
   * The models the tool may call, so a worker with a model allow-list refuses it at start rather
   * than at a call. Those with an `alias` are offered to the agent by that name: their tier and
   * price reach the workflow in the spec (`modelChoices`), which routes a call that names none.
   */
  readonly models?: ReadonlyArray<
    { readonly provider: ModelProviderName; readonly model: string } & Partial<Omit<ModelChoice, 'model'>>
  >;
  execute(args: z.output<Input>, context: ToolContext): Promise<Output> | Output;
  validate?(args: z.output<Input>, context: ToolContext): Promise<ToolValidation> | ToolValidation;
  reconcile?(idempotencyKey: string, context: ToolContext): Promise<Reconciled<Output>> | Reconciled<Output>;
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
  /**
   * What a call does to the world. Default `idempotent`: retried by its `retry` policy, so a tool
   * with a side effect must dedupe it by `idempotencyKey`, or say `once`.
   * - `none`: no side effects; an identical call within a run reuses the earlier observation.
   * - `once`: never retried by Temporal. An attempt that was lost (its worker died, it timed out)
   *   is put to `reconcile`, else to a person: run again, mark done, or give up.
   */
  effects?: ToolEffects;
  /** What the tool returns: a sentence, or a zod schema (rendered as JSON Schema); both prompts show it. */
  returns?: string | z.ZodType;
  /**
   * Checks a call's arguments in the worker before it runs (and before a person is asked to approve
   * it): return a reason to refuse it, which the model reads as an error observation; the tool does
   * not run. A hook that throws refuses the call too.
   */
  validate?(args: z.output<Input>, context: ToolContext): Promise<ToolValidation> | ToolValidation;
  /**
   * What the chain records of a call. Default `full`. `basic`: the call and whether it succeeded,
   * its arguments, result and error replaced by a marker; `none`: only that a call was made. The
   * model still reads the result.
   */
  auditLevel?: AuditLevel;
  /** Tools to try instead, named in this tool's error observations (those the run has, at most 5). */
  alternatives?: readonly string[];
  /**
   * For an `effects: 'once'` tool: after a lost attempt, whether its effect happened (look it up by
   * the idempotency key). `{ happened: false }` runs the tool again with the same key.
   */
  reconcile?(idempotencyKey: string, context: ToolContext): Promise<Reconciled<Output>> | Reconciled<Output>;
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
   * Default: `always` for write-like tools (effects other than `none`, type `file_system` or `database`), else `never`.
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

/** A `returns` option as the prompts show it: the text, or the schema's output JSON Schema, compact. */
function returnsText(name: string, returns: string | z.ZodType | undefined): string | undefined {
  if (returns === undefined) return undefined;
  let text: string;
  if (typeof returns === 'string') text = returns.trim();
  else {
    try {
      const { $schema: _dialect, ...schema } = z.toJSONSchema(returns, { io: 'output' }) as Record<string, unknown>;
      text = JSON.stringify(schema);
    } catch (err) {
      throw new InvalidToolDefinitionError(
        `Tool "${name}": its returns schema cannot be shown as JSON Schema: ${(err as Error).message}`,
      );
    }
  }
  if (!text) throw new InvalidToolDefinitionError(`Tool "${name}": returns must not be empty.`);
  if (text.length > MAX_RETURNS_CHARS)
    throw new InvalidToolDefinitionError(
      `Tool "${name}": returns is ${text.length} characters as the prompts show it; at most ${MAX_RETURNS_CHARS}.`,
    );
  return text;
}

function checkedAlternatives(name: string, alternatives: readonly string[] | undefined): string[] {
  const list = [...new Set(alternatives ?? [])];
  if (list.length > MAX_ALTERNATIVES)
    throw new InvalidToolDefinitionError(`Tool "${name}": at most ${MAX_ALTERNATIVES} alternatives.`);
  for (const alt of list) {
    if (!TOOL_NAME.test(alt) || alt === name)
      throw new InvalidToolDefinitionError(
        `Tool "${name}": alternative "${alt}" must be another tool's name (letters, digits, _ and -).`,
      );
  }
  return list;
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
  const effects = options.effects ?? 'idempotent';
  if (options.reconcile && effects !== 'once')
    throw new InvalidToolDefinitionError(
      `Tool "${options.name}": reconcile is for tools with effects 'once'; this one has '${effects}', so a lost attempt is simply retried.`,
    );
  if (options.local && effects === 'once')
    throw new InvalidToolDefinitionError(
      `Tool "${options.name}": a once tool cannot be local. A local activity's attempt is not recorded until it ends, so a worker that dies during it runs it again on replay, unseen; make it an ordinary activity.`,
    );
  const returns = returnsText(options.name, options.returns);
  const alternatives = checkedAlternatives(options.name, options.alternatives);
  return Object.freeze({
    name: options.name,
    type: options.type ?? 'external',
    description: options.description,
    input: options.input,
    timeoutMs,
    retry: { maximumAttempts: 3, initialIntervalMs: 1_000, backoffCoefficient: 2, ...options.retry },
    visibility: options.visibility ?? 'full',
    effects,
    ...(returns ? { returns } : {}),
    auditLevel: options.auditLevel ?? 'full',
    alternatives,
    local: options.local ?? false,
    ...(options.maxResultChars ? { maxResultChars: options.maxResultChars } : {}),
    approval: options.approval ?? defaultApprovalPolicy({ type: options.type ?? 'external', effects }),
    approverRoles: options.approverRoles ?? [],
    requiredRoles: options.requiredRoles ?? [],
    sensitiveFields: options.sensitiveFields ?? [],
    ...(options.summaryTemplate ? { summaryTemplate: options.summaryTemplate } : {}),
    ...(options.models ? { models: options.models.map(modelEntry) } : {}),
    execute: options.execute,
    ...(options.validate ? { validate: options.validate } : {}),
    ...(options.reconcile ? { reconcile: options.reconcile } : {}),
  });
}

/** A copy of one model entry, with only the fields a tool's models have. */
function modelEntry(m: NonNullable<ToolDefinition['models']>[number]): NonNullable<ToolDefinition['models']>[number] {
  return {
    provider: m.provider,
    model: m.model,
    ...(m.alias !== undefined ? { alias: m.alias } : {}),
    ...(m.tier !== undefined ? { tier: m.tier } : {}),
    ...(m.price !== undefined ? { price: { input: m.price.input, output: m.price.output } } : {}),
  };
}
