import { z } from 'zod';
import { ToolType, VisibilityLevel } from '../chain/chain';
import { ViewerRole } from '../identity/people';

/*
 * The visibility policy an organisation configures (seed 002, "Visibility by default,
 * configurable by design"): one file read by workers and `serve`. Pure schemas, loaded by the
 * workflow bundle (the `chain` query applies a lens made from it), so no regex or string formats.
 */

/** Most entries one map of a policy may hold (tools, agents, deployments, tenants, fields). */
export const MAX_POLICY_ENTRIES = 500;

const bounded = <T extends z.ZodType>(record: T, what: string) =>
  record.refine((value) => Object.keys(value as object).length <= MAX_POLICY_ENTRIES, {
    message: `at most ${MAX_POLICY_ENTRIES} ${what}`,
  });

/**
 * What a level applies to. `model_call` is a call to a model (tool type `llm`) and its result;
 * `sub_agent` a call to a sub-agent and its result; `tool_call` and `tool_result` every other
 * call and result (external, database, file system, skill, custom); `synthesis` the answer.
 */
export const StepKind = z.enum(['thinking', 'model_call', 'tool_call', 'tool_result', 'sub_agent', 'synthesis']);
export type StepKind = z.infer<typeof StepKind>;

/** A level per kind of step; a kind left out is not limited by this layer. */
export const LevelsByKind = z.partialRecord(StepKind, VisibilityLevel);
export type LevelsByKind = z.infer<typeof LevelsByKind>;

/** Levels for one tool's calls and results (a tool's result can be narrower than its call). */
export const ToolLevels = z.strictObject({ call: VisibilityLevel.optional(), result: VisibilityLevel.optional() });
export type ToolLevels = z.infer<typeof ToolLevels>;

/** One layer of the policy: levels by kind of step, by tool name and tool type, and for sub-agents' chains. */
export const VisibilityRules = z.strictObject({
  steps: LevelsByKind.default({}),
  tools: bounded(z.record(z.string().min(1), ToolLevels), 'tools').default({}),
  toolTypes: z.partialRecord(ToolType, ToolLevels).default({}),
  /** How a sub-agent's own chain is shown: in full, as its summary only, or not at all. */
  subChains: VisibilityLevel.optional(),
});
export type VisibilityRules = z.infer<typeof VisibilityRules>;

/** One view's rules, and who holds it. */
export const RolePolicy = VisibilityRules.extend({
  /**
   * Identity roles (from authentication, never from the request) granted this view. When any
   * view of the policy names roles, only the policy's grants decide who reads which view.
   */
  grantedTo: z.array(z.string().min(1).max(200)).max(100).default([]),
  /** Whether people with this view may narrow it with their own preferences (journey 5). */
  preferences: z.boolean().default(true),
});
export type RolePolicy = z.infer<typeof RolePolicy>;

/** Per-tenant rules: more fields to mask, by tool name, in every view but the auditor's. */
export const TenantRules = z.strictObject({
  sensitiveFields: bounded(
    z.record(z.string().min(1), z.array(z.string().min(1).max(200)).max(100)),
    'tools with sensitive fields',
  ).default({}),
});
export type TenantRules = z.infer<typeof TenantRules>;

/**
 * The whole policy. Every layer can only narrow what a step shows; the effective level of a step
 * is the narrowest of: security, the viewer's role, their preference, the tool's own level (as the
 * run recorded it), and the platform's defaults (`platform`, then this deployment's and the run's
 * agent's). Order (security, role, preference, tool, platform) names which layer decided.
 */
export const VisibilityPolicy = z.strictObject({
  version: z.literal(1),
  /** Compliance rules that apply to every view, the auditor's included. */
  security: VisibilityRules.prefault({}),
  roles: z.partialRecord(ViewerRole, RolePolicy).default({}),
  platform: VisibilityRules.prefault({}),
  /** Defaults per deployment; `THOUGHTLINE_DEPLOYMENT` (or `deployment` below) says which one this is. */
  deployments: bounded(z.record(z.string().min(1), VisibilityRules), 'deployments').default({}),
  /** This process's deployment name when `THOUGHTLINE_DEPLOYMENT` is unset. */
  deployment: z.string().min(1).max(200).optional(),
  /** Defaults per agent (by the chain's `agentName`). */
  agents: bounded(z.record(z.string().min(1), VisibilityRules), 'agents').default({}),
  tenants: bounded(z.record(z.string().min(1), TenantRules), 'tenants').default({}),
  /** The view OpenTelemetry content is recorded in (only when content capture is on). */
  telemetry: z.strictObject({ view: ViewerRole.default('developer') }).default({ view: 'developer' }),
});
export type VisibilityPolicy = z.infer<typeof VisibilityPolicy>;
export type VisibilityPolicyInit = z.input<typeof VisibilityPolicy>;
