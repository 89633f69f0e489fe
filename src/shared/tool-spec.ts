import { z } from 'zod';
import { ApprovalPolicy } from './approval/approval';
import { ToolType, VisibilityLevel } from './chain';
import { ElicitationAnswer, ElicitationRequest, MAX_ELICITATION_ROUNDS } from './elicitation';

export const ToolRetry = z.object({
  maximumAttempts: z.number().int().positive(),
  initialIntervalMs: z.number().int().positive(),
  backoffCoefficient: z.number().min(1),
});
export type ToolRetry = z.infer<typeof ToolRetry>;

/**
 * What the workflow knows of a tool: everything but its code. The worker's registry serves these
 * through the `describeTools` activity, so a run records the exact tool set it started with.
 */
export const ToolSpec = z.object({
  name: z.string(),
  type: ToolType,
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  timeoutMs: z.number().int().positive(),
  retry: ToolRetry,
  visibility: VisibilityLevel,
  /** No side effects: an identical call within a run reuses the earlier observation. */
  readOnly: z.boolean().optional(),
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
});
export type ToolSpec = z.infer<typeof ToolSpec>;

/** Input of the `runTool` activity. Arguments were already validated in the workflow. */
export const ToolInvocation = z.object({
  toolName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** Workflow id + step id: the same on every retry of this call, so tools can dedupe side effects. */
  idempotencyKey: z.string(),
  maxResultChars: z.number().int().positive(),
  /** Answers a person gave to this call's earlier elicitation requests (MCP tools only). */
  elicitation: z.array(ElicitationAnswer).max(MAX_ELICITATION_ROUNDS).optional(),
});
export type ToolInvocation = z.infer<typeof ToolInvocation>;

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
});
export type ToolOutput = z.infer<typeof ToolOutput>;
