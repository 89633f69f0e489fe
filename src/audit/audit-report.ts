import { z } from 'zod';
import {
  AgentStatus,
  AnswerGrounding,
  ApprovalStatus,
  Confidence,
  ChainStatus,
  Person,
  ReasoningChain,
  ReasoningStep,
  TerminationReason,
  TokenUsage,
  ViewerRole,
  addUsage,
  addUsd,
  totalTokens,
  zeroUsage,
  type AgentResult,
  type ApprovalRecord,
} from '../domain';
import { AuditModelCall } from '../client/history/model-call-history';
import { RunScore } from '../domain/evaluation/run-scores';
import { ReportIntegrity } from './report-integrity';

export { AuditModelCall };

/** Bumped whenever a stored report would no longer parse; old exports must keep parsing. */
export const AUDIT_REPORT_SCHEMA_VERSION = 1;

export const AuditOutcome = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('finished'),
    terminationReason: TerminationReason,
    success: z.boolean(),
    finalAnswer: z.string(),
    /** What stands behind the answer, as the result recorded it; absent for runs recorded before. */
    grounding: AnswerGrounding.optional(),
    /** Step ids of the observations behind the answer. */
    answerSources: z.array(z.string()).optional(),
    /** A partly grounded answer's claims that nothing behind it supports (the synthesis step's `claimCheck` has each claim). */
    unsupportedClaims: z.array(z.string()).optional(),
    /** A contradicted answer's claims an observation says otherwise of. */
    contradictedClaims: z.array(z.string()).optional(),
    /** The claims nothing could check. */
    uncheckedClaims: z.array(z.string()).optional(),
    confidence: Confidence.optional(),
    error: z.string().optional(),
  }),
  /** No result yet: what the run is doing, and its live status when the caller had it. */
  z.object({ state: z.literal('running'), chainStatus: ChainStatus, live: AgentStatus.optional() }),
]);
export type AuditOutcome = z.infer<typeof AuditOutcome>;

export const ModelCost = z.object({
  model: z.string(),
  /** Replies received plus calls still in flight (or whose reply the view hides). */
  calls: z.number().int().nonnegative(),
  failedCalls: z.number().int().nonnegative(),
  usage: TokenUsage,
  totalTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
});
export type ModelCost = z.infer<typeof ModelCost>;

export const AuditCosts = z.object({
  /** Where the totals come from: the final result, the live status, or the steps the view shows. */
  totalsFrom: z.enum(['result', 'live_status', 'chain']),
  usage: TokenUsage,
  totalTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  modelCalls: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  /** Summed from the model steps in the view, in order of first use; may fall short of the totals. */
  byModel: z.array(ModelCost),
});
export type AuditCosts = z.infer<typeof AuditCosts>;

export const AuditApproval = z.object({
  callId: z.string(),
  stepId: z.string(),
  runId: z.string(),
  toolName: z.string(),
  /** Exactly what the approvers were shown. */
  arguments: z.record(z.string(), z.unknown()),
  argumentsHash: z.string(),
  /** Why approval was needed: `always`, or the rule that held. */
  requiredBecause: z.string(),
  approverRoles: z.array(z.string()),
  requestedAt: z.string(),
  expiresAt: z.string(),
  decision: ApprovalStatus,
  decidedBy: Person.optional(),
  decidedAt: z.string().optional(),
  /** The approver's comment, or the reason for a rejection. */
  note: z.string().optional(),
  /** Request to decision; to expiry when timed out; to the export when still pending. */
  waitedMs: z.number().nonnegative(),
});
export type AuditApproval = z.infer<typeof AuditApproval>;

export const AuditIntervention = z.object({
  stepId: z.string(),
  stepNumber: z.number().int().positive(),
  timestamp: z.string(),
  kind: z.enum(['steer', 'answer', 'cancel', 'budget']),
  by: z.string(),
  /** What the person said, as far as the view shows it. */
  text: z.string().optional(),
});
export type AuditIntervention = z.infer<typeof AuditIntervention>;

export const AuditReport = z.object({
  schemaVersion: z.literal(AUDIT_REPORT_SCHEMA_VERSION),
  generatedBy: z.literal('thoughtline'),
  exportedAt: z.string(),
  exportedBy: Person.optional(),
  run: z.object({
    workflowId: z.string(),
    /** Every Temporal run of the workflow (continue-as-new), oldest first. */
    runIds: z.array(z.string()).min(1),
    agentName: z.string(),
    task: z.string(),
    /** Who started the run and with what roles, from its input (authenticated by whoever started it); absent when nobody was named. */
    caller: Person.optional(),
    tenant: z.string().optional(),
    /** Set on a fork: the run and step it started from. */
    forkedFrom: z.object({ workflowId: z.string(), atStep: z.number().int().nonnegative() }).optional(),
    startedAt: z.string(),
    completedAt: z.string().optional(),
    status: ChainStatus,
    iterations: z.number().int().nonnegative(),
    /** Workflow time for a finished run; start to completion (or to the export) otherwise. */
    durationMs: z.number().nonnegative(),
  }),
  outcome: AuditOutcome,
  costs: AuditCosts,
  approvals: z.array(AuditApproval),
  interventions: z.array(AuditIntervention),
  /** The chain's steps exactly as the view gave them. */
  steps: z.array(ReasoningStep),
  /** Set when the first steps could not be read: the Temporal run that held them is gone from the server (retention). */
  stepsUnavailable: ReasoningChain.shape.unavailable,
  /** No role means the chain was exported unfiltered. */
  view: z.object({ role: ViewerRole.optional(), hiddenSteps: z.number().int().nonnegative() }),
  /** The auditor's export: every model call's whole request and reply, rebuilt from the run's history. */
  modelCalls: z.array(AuditModelCall).optional(),
  /** Why the auditor's export has no (or not every) model call: the history could not be read or matched, or the calls passed the size limit. */
  modelCallsUnavailable: z.string().optional(),
  /**
   * Outcome scores attached to the run, often after it ended (`AgentClient.score`, `POST
   * /v1/runs/{id}/scores`), oldest first; absent when it has none, so reports of unscored runs and
   * exports made before scores existed read and verify as they did.
   */
  scores: z.array(RunScore).optional(),
  /** Why the scores could not be read (an open scores workflow that no worker answered for). */
  scoresUnavailable: z.string().optional(),
  /** Sub-agents' reports, in the order they were started, each sealed on its own. */
  get children(): z.ZodOptional<z.ZodArray<typeof AuditReport>> {
    return z.array(AuditReport).optional();
  },
  /** The hash chain and signature (`thoughtline verify` checks them); absent in reports exported before sealing. */
  integrity: ReportIntegrity.optional(),
});
export type AuditReport = z.infer<typeof AuditReport>;

export interface AuditReportInput {
  workflowId: string;
  runIds: string[];
  /** From the run's first input. */
  startedBy?: { caller?: Person; tenant?: string; forkedFrom?: { workflowId: string; atStep: number } };
  /** Already filtered for the viewer's role; `result.chain` is never read, as it is unfiltered. */
  chain: ReasoningChain;
  result?: AgentResult;
  status?: AgentStatus;
  exportedAt: string;
  exportedBy?: Person;
  /** The run's scores; none or an empty list leaves the section out. */
  scores?: RunScore[];
  scoresUnavailable?: string;
}

const msBetween = (from: string, to: string): number => {
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
};

/** Builds the audit report; pure, so the same inputs always give the same report. */
export function buildAuditReport(input: AuditReportInput): AuditReport {
  const { chain, result, status, exportedAt } = input;
  const lastIteration = chain.steps.reduce((max, s) => Math.max(max, s.iteration), 0);
  return AuditReport.parse({
    schemaVersion: AUDIT_REPORT_SCHEMA_VERSION,
    generatedBy: 'thoughtline',
    exportedAt,
    ...(input.exportedBy ? { exportedBy: input.exportedBy } : {}),
    run: {
      workflowId: input.workflowId,
      runIds: input.runIds,
      agentName: chain.agentName,
      task: chain.task,
      ...(input.startedBy?.caller ? { caller: input.startedBy.caller } : {}),
      ...(input.startedBy?.tenant ? { tenant: input.startedBy.tenant } : {}),
      ...(input.startedBy?.forkedFrom ? { forkedFrom: input.startedBy.forkedFrom } : {}),
      startedAt: chain.startedAt,
      ...(chain.completedAt ? { completedAt: chain.completedAt } : {}),
      status: chain.status,
      iterations: result?.iterations ?? status?.iteration ?? lastIteration,
      durationMs: result?.executionTimeMs ?? msBetween(chain.startedAt, chain.completedAt ?? exportedAt),
    },
    outcome: result
      ? {
          state: 'finished',
          terminationReason: result.terminationReason,
          success: result.success,
          finalAnswer: result.finalAnswer,
          ...(result.grounding ? { grounding: result.grounding } : {}),
          ...(result.answerSources ? { answerSources: result.answerSources } : {}),
          ...(result.unsupportedClaims ? { unsupportedClaims: result.unsupportedClaims } : {}),
          ...(result.contradictedClaims ? { contradictedClaims: result.contradictedClaims } : {}),
          ...(result.uncheckedClaims ? { uncheckedClaims: result.uncheckedClaims } : {}),
          ...(result.confidence !== undefined ? { confidence: result.confidence } : {}),
          ...(result.error ? { error: result.error } : {}),
        }
      : { state: 'running', chainStatus: chain.status, ...(status ? { live: status } : {}) },
    costs: auditCosts(chain.steps, result, status),
    approvals: (chain.approvals ?? []).map((a) => auditApproval(a, exportedAt)),
    interventions: chain.steps.flatMap(intervention),
    steps: chain.steps,
    ...(chain.unavailable ? { stepsUnavailable: chain.unavailable } : {}),
    view: { ...(chain.view ? { role: chain.view.role } : {}), hiddenSteps: chain.view?.hiddenSteps ?? 0 },
    ...(input.scores?.length ? { scores: input.scores } : {}),
    ...(input.scoresUnavailable ? { scoresUnavailable: input.scoresUnavailable } : {}),
  });
}

function auditCosts(
  steps: ReasoningStep[],
  result: AgentResult | undefined,
  status: AgentStatus | undefined,
): AuditCosts {
  const byModel = costsByModel(steps);
  const calls = steps.filter((s) => s.type === 'tool_call');
  const modelCalls = calls.filter((s) => s.toolCall.toolType === 'llm').length;
  const counted = { modelCalls, toolCalls: calls.length - modelCalls };
  const totals = result
    ? {
        totalsFrom: 'result' as const,
        usage: result.usage,
        costUsd: result.costUsd,
        modelCalls: result.modelCalls,
        toolCalls: result.toolCalls,
      }
    : status
      ? { totalsFrom: 'live_status' as const, usage: status.usage, costUsd: status.costUsd, ...counted }
      : {
          totalsFrom: 'chain' as const,
          usage: byModel.reduce((sum, m) => addUsage(sum, m.usage), zeroUsage()),
          costUsd: byModel.reduce((sum, m) => addUsd(sum, m.costUsd), 0),
          ...counted,
        };
  return { ...totals, totalTokens: totalTokens(totals.usage), byModel };
}

/** A model call is an `llm` tool_call answered by a tool_result carrying `model` (the reply's model). */
function costsByModel(steps: ReasoningStep[]): ModelCost[] {
  const rows = new Map<string, ModelCost>();
  const row = (model: string): ModelCost => {
    const found = rows.get(model);
    if (found) return found;
    const fresh: ModelCost = { model, calls: 0, failedCalls: 0, usage: zeroUsage(), totalTokens: 0, costUsd: 0 };
    rows.set(model, fresh);
    return fresh;
  };
  const unanswered = new Map<string, string>();
  for (const step of steps) {
    if (step.type === 'tool_call' && step.toolCall.toolType === 'llm') {
      unanswered.set(step.toolCall.correlationId, step.model ?? step.toolCall.toolName);
    }
    if (step.type !== 'tool_result') continue;
    // A successful llm result without a model is an ask_model consensus: its models' own steps count.
    if (step.model === undefined) {
      if (step.toolResult.success) unanswered.delete(step.toolResult.correlationId);
      continue;
    }
    unanswered.delete(step.toolResult.correlationId);
    const r = row(step.model);
    r.calls += 1;
    if (!step.toolResult.success) r.failedCalls += 1;
    if (step.usage) r.usage = addUsage(r.usage, step.usage);
    r.costUsd = addUsd(r.costUsd, step.costUsd ?? 0);
  }
  for (const model of unanswered.values()) row(model).calls += 1;
  return [...rows.values()].map((r) => ({ ...r, totalTokens: totalTokens(r.usage) }));
}

function auditApproval(a: ApprovalRecord, exportedAt: string): AuditApproval {
  const endedAt = a.decidedAt ?? (a.status === 'pending' ? exportedAt : a.expiresAt);
  return {
    callId: a.callId,
    stepId: a.stepId,
    runId: a.runId,
    toolName: a.toolName,
    arguments: a.arguments,
    argumentsHash: a.argumentsHash,
    requiredBecause: a.reason,
    approverRoles: a.approverRoles,
    requestedAt: a.requestedAt,
    expiresAt: a.expiresAt,
    decision: a.status,
    ...(a.decidedBy ? { decidedBy: a.decidedBy } : {}),
    ...(a.decidedAt ? { decidedAt: a.decidedAt } : {}),
    ...(a.note !== undefined ? { note: a.note } : {}),
    waitedMs: msBetween(a.requestedAt, endedAt),
  };
}

/** Steering, answers and cancels; approval decisions are reported, in full, under `approvals`. */
function intervention(step: ReasoningStep): AuditIntervention[] {
  const from = step.fromPerson;
  if (!from || from.kind === 'approval') return [];
  const text = personText(step);
  return [
    {
      stepId: step.stepId,
      stepNumber: step.stepNumber,
      timestamp: step.timestamp,
      kind: from.kind,
      by: from.by,
      ...(text !== undefined ? { text } : {}),
    },
  ];
}

function personText(step: ReasoningStep): string | undefined {
  if (step.visibility.level === 'hidden') return undefined;
  if (step.visibility.level === 'summary' && step.visibility.summary) return step.visibility.summary;
  const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  switch (step.type) {
    case 'thinking':
      return step.thought;
    case 'tool_call':
      return `${step.toolCall.toolName} ${JSON.stringify(step.toolCall.arguments)}`;
    case 'tool_result':
      return step.toolResult.success ? asText(step.toolResult.result) : (step.toolResult.error ?? 'failed');
    case 'synthesis':
      return step.synthesis.conclusion;
  }
}
