import { z } from 'zod';
import { ApprovalPolicy } from '../approval/approval';
import { ToolType, VisibilityLevel } from '../chain/chain';
import { ElicitationAnswer, ElicitationRequest, MAX_ELICITATION_ROUNDS } from './elicitation';
import { McpTaskRef } from './mcp-task';
import { CacheRequest } from '../planning/cache-request';
import { CacheHit } from '../planning/plan-verdicts';
import { MAX_MODEL_CHOICES, ModelChoice } from '../model/model-tier';

export const ToolRetry = z.object({
  maximumAttempts: z.number().int().positive(),
  initialIntervalMs: z.number().int().positive(),
  backoffCoefficient: z.number().min(1),
});
export type ToolRetry = z.infer<typeof ToolRetry>;

/**
 * What running a tool does to the world. `none`: nothing (an identical call within a run reuses
 * the earlier observation). `idempotent`: a repeat with the same idempotency key does no more
 * than the first, so Temporal may retry it. `once`: never retried by Temporal; a lost attempt is
 * reconciled or put to a person (tool-outcome.ts).
 */
export const ToolEffects = z.enum(['none', 'idempotent', 'once']);
export type ToolEffects = z.infer<typeof ToolEffects>;

/** What the chain records of a call: `full` everything; `basic` the call and whether it succeeded; `none` that it happened. */
export const AuditLevel = z.enum(['none', 'basic', 'full']);
export type AuditLevel = z.infer<typeof AuditLevel>;

/** Longest `returns` text a spec carries (both prompts render it). */
export const MAX_RETURNS_CHARS = 2_000;
/** Most alternatives one tool may name. */
export const MAX_ALTERNATIVES = 5;
/** Longest refusal reason a `validate` hook's answer is cut to. */
export const MAX_REFUSAL_CHARS = 1_000;

/**
 * What the workflow knows of a tool: everything but its code. The worker's registry serves these
 * with the run's first model call (or the `describeTools` activity before it: run-tools.ts), so a
 * run records the exact tool set it started with.
 */
export const ToolSpec = z.object({
  name: z.string(),
  type: ToolType,
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  timeoutMs: z.number().int().positive(),
  retry: ToolRetry,
  visibility: VisibilityLevel,
  /**
   * Recorded form of `effects: 'none'`, kept because recorded specs and readers (the fork plan,
   * `thoughtline tools`) use it; a spec with `effects` is read by `effects` alone.
   */
  readOnly: z.boolean().optional(),
  /** Absent on specs recorded before it existed: then `readOnly` decides (toolEffects). */
  effects: ToolEffects.optional(),
  /** What the tool returns, rendered in both prompts. */
  returns: z.string().max(MAX_RETURNS_CHARS).optional(),
  /** Absent means `full`. */
  auditLevel: AuditLevel.optional(),
  /** Tools an error observation of this one suggests; only those in the run's tool set are kept. */
  alternatives: z.array(z.string()).max(MAX_ALTERNATIVES).optional(),
  /** The tool has a `validate` hook: a call that needs approval is validated before a person is asked. */
  validates: z.boolean().optional(),
  /** The tool has a `reconcile` hook (`once` tools only): a lost attempt asks it whether the effect happened. */
  reconciles: z.boolean().optional(),
  /** This tool's own result limit, in characters; the smaller of it and the run's wins. */
  maxResultChars: z.number().int().positive().optional(),
  /** Runs as a Temporal local activity, in the worker running the workflow task (short tools only). */
  local: z.boolean().optional(),
  /** When a person must approve a call before it runs; absent means `never`. */
  approval: ApprovalPolicy.optional(),
  /** Roles that may approve a call; empty or absent means anyone the caller names. */
  approverRoles: z.array(z.string()).optional(),
  /** The caller must hold one of these roles, else the call is refused as an observation. */
  requiredRoles: z.array(z.string()).optional(),
  /** Argument and result fields (dotted paths) redacted in every view but the auditor's. */
  sensitiveFields: z.array(z.string()).optional(),
  /** Shown instead of the step at `summary` visibility: `{field}` from the arguments or the result. */
  summaryTemplate: z.string().optional(),
  /** The models a tool that asks models offers (ask_model): tier and price, so the workflow can route a call that names none. */
  modelChoices: z.array(ModelChoice).min(1).max(MAX_MODEL_CHOICES).optional(),
});
export type ToolSpec = z.infer<typeof ToolSpec>;

/** A spec's effects; a spec recorded before `effects` existed is read from `readOnly`. */
export function toolEffects(spec: Pick<ToolSpec, 'effects' | 'readOnly'>): ToolEffects {
  return spec.effects ?? (spec.readOnly ? 'none' : 'idempotent');
}

/** Input of the `runTool` activity. Arguments were already validated in the workflow. */
export const ToolInvocation = z.object({
  toolName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** Workflow id + step id: the same on every retry of this call, so tools can dedupe side effects. */
  idempotencyKey: z.string(),
  maxResultChars: z.number().int().positive(),
  /** Answers a person gave to this call's earlier elicitation requests (MCP tools only). */
  elicitation: z.array(ElicitationAnswer).max(MAX_ELICITATION_ROUNDS).optional(),
  /** The tool's `validate` hook already allowed these arguments (before approval): not asked again. */
  validated: z.boolean().optional(),
  /** The run caches this tool's results (`cache.tools`): the worker may answer from its cache. */
  cache: CacheRequest.optional(),
});
export type ToolInvocation = z.infer<typeof ToolInvocation>;

/** Longest line a tool may give when it narrows its own result to `summary`. */
export const MAX_NARROWED_SUMMARY_CHARS = 200;

/**
 * A tool's request to show its own result step less widely than configured
 * (ToolContext.narrowVisibility). The workflow takes the narrower of this and the configured
 * level, so it can hide a result but never show more than the tool's and the run's settings.
 */
export const NarrowedVisibility = z.object({
  level: z.enum(['summary', 'hidden']),
  /** The line shown at `summary`; redacted and bounded by the worker. */
  summary: z.string().max(MAX_NARROWED_SUMMARY_CHARS).optional(),
});
export type NarrowedVisibility = z.infer<typeof NarrowedVisibility>;

export const ToolOutput = z.object({
  /** JSON-safe, and cut to `maxResultChars` when `truncated`. */
  result: z.unknown(),
  truncated: z.boolean(),
  /** This attempt's run time; from the second attempt on, the time since the first was scheduled. */
  durationMs: z.number().nonnegative(),
  /** Which attempt succeeded (1 = first). Absent from results recorded before it existed. */
  attempts: z.number().int().positive().optional(),
  /** The tool (an MCP server) asked for input the call does not carry: `result` is null; ask a person and run it again. */
  needsInput: ElicitationRequest.optional(),
  /** The tool (an MCP server) answered with a task still under way: `result` is null; wait and poll it (pollMcpTask). */
  parked: McpTaskRef.optional(),
  /** The tool's `validate` hook refused the arguments, with this reason: the tool did not run, `result` is null. */
  refused: z.string().optional(),
  /** The result came from the worker's cache, stored by an earlier run: the tool did not run. */
  cacheHit: CacheHit.optional(),
  /** The tool narrowed its result step (ToolContext.narrowVisibility). Absent from results recorded before it existed. */
  visibility: NarrowedVisibility.optional(),
});
export type ToolOutput = z.infer<typeof ToolOutput>;

/** Input of the `validateToolCall` and `reconcileTool` activities. */
export const ToolCheckInput = z.object({
  toolName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  idempotencyKey: z.string(),
  maxResultChars: z.number().int().positive(),
});
export type ToolCheckInput = z.infer<typeof ToolCheckInput>;

/** What a `once` tool's `reconcile` hook said of a lost attempt: the effect happened (with its result, if known) or not. */
export const Reconciliation = z.object({
  happened: z.boolean(),
  result: z.unknown().optional(),
  truncated: z.boolean().optional(),
  /** The reconcile hook narrowed the result it found (ToolContext.narrowVisibility). */
  visibility: NarrowedVisibility.optional(),
});
export type Reconciliation = z.infer<typeof Reconciliation>;
