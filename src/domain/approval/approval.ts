import { z } from 'zod';
import { Person } from '../identity/people';
import { DecisionSignatureField } from './signed-decision';

/**
 * One declarative condition over a call's arguments. `field` is a dotted path into the
 * arguments (`"target.path"`). Evaluated in the workflow, so it must stay pure.
 */
export const ApprovalRule = z.discriminatedUnion('when', [
  /** The field is not a plain absolute POSIX path outside every prefix (anything ambiguous holds). */
  z.object({ when: z.literal('pathPrefix'), field: z.string(), prefixes: z.array(z.string().min(1)).min(1) }),
  /** The field is a number (or numeric string) strictly greater than `threshold`. */
  z.object({ when: z.literal('above'), field: z.string(), threshold: z.number() }),
  /**
   * The field's SQL is not one plain read as the PostgreSQL and MySQL parsers read it (anything
   * they cannot read holds); a plain read holds too when `SELECT` is among the verbs.
   */
  z.object({ when: z.literal('sqlVerb'), field: z.string(), verbs: z.array(z.string().min(1)).min(1) }),
  /** The field's text matches the regular expression (RE2 syntax, linear time, case-insensitive). */
  z.object({ when: z.literal('matches'), field: z.string(), pattern: z.string().min(1) }),
  /** The field equals one of the values (JSON equality). */
  z.object({ when: z.literal('equals'), field: z.string(), values: z.array(z.unknown()).min(1) }),
]);
export type ApprovalRule = z.infer<typeof ApprovalRule>;

/** `never`, `always`, or approval when any rule holds. */
export const ApprovalPolicy = z.union([z.enum(['never', 'always']), z.object({ anyOf: z.array(ApprovalRule).min(1) })]);
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;

export const ApprovalStatus = z.enum(['pending', 'approved', 'rejected', 'timed_out']);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/** One call that needed a person's decision: what was shown, who decided, when and why. */
export const ApprovalRecord = z.object({
  /** The call's correlation id (the model's tool_use id). */
  callId: z.string(),
  /** The tool_call step that shows the call. */
  stepId: z.string(),
  toolName: z.string(),
  /** Exactly what the approver is shown and what runs on approval. */
  arguments: z.record(z.string(), z.unknown()),
  /** The tool's sensitive fields (dotted paths into `arguments`): views other than the auditor's hide them. */
  sensitiveFields: z.array(z.string()).optional(),
  /** Canonical-JSON hash of `arguments`; a decision must name it. */
  argumentsHash: z.string(),
  /** Why approval was needed: `always`, or the rule that held. */
  reason: z.string(),
  /** Roles that may decide; empty means any caller. */
  approverRoles: z.array(z.string()),
  /** The Temporal run the request was made in. */
  runId: z.string(),
  /** The agent run (workflow id) that waits; set on records a parent shows for its sub-agents. */
  workflowId: z.string().optional(),
  /** For a sub-agent's record: the agents from the root down to the one that waits. */
  agentPath: z.array(z.string()).optional(),
  requestedAt: z.string(),
  /** When the request times out (workflow time). */
  expiresAt: z.string(),
  status: ApprovalStatus,
  decidedAt: z.string().optional(),
  decidedBy: Person.optional(),
  /** The approver's comment, or the reason for a rejection. */
  note: z.string().optional(),
  /**
   * Absent: approve a call before it runs. `outcome_unknown`: an `effects: 'once'` call's attempt
   * was lost and nobody knows whether its effect happened; approving runs it again, rejecting
   * gives up, approving with `markDone` records it done without running it.
   */
  kind: z.enum(['outcome_unknown']).optional(),
  /** On an `outcome_unknown` record: the person said the effect happened. */
  markedDone: z.boolean().optional(),
  /** With `markedDone`: the result the person gave, which the model reads. */
  result: z.string().optional(),
});
export type ApprovalRecord = z.infer<typeof ApprovalRecord>;

/** What an approver sends through the `approveToolCall` update. */
export const ApprovalDecision = z.object({
  callId: z.string().min(1),
  approved: z.boolean(),
  by: Person,
  /** Must equal the record's `argumentsHash`: the approver saw exactly these arguments. */
  argumentsHash: z.string().min(1),
  /** Required when rejecting. */
  reason: z.string().optional(),
  /** Only for an `outcome_unknown` record, with `approved: true`: the effect happened; do not run it again. */
  markDone: z.boolean().optional(),
  /** With `markDone`: the call's result as the person knows it (text the model reads). */
  result: z.string().optional(),
  /** The server's signature over the decision; required by runs with `signedDecisions`. */
  signature: DecisionSignatureField.optional(),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;
