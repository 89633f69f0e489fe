import { CHAIN_SCHEMA_VERSION, endedStateOf, type ApprovalRecord, type ReasoningStep } from '../domain';
import type { RunImport } from '../domain/store';
import type { RunUpdate } from '../store/chain-store';
import type { AuditApproval, AuditReport } from './audit-report';
import { ImportRefusedError } from './import-refused-error';

/** A verified report as the store keeps a run: its row (marked imported) and its raw steps. */
export interface ImportedRunWrite {
  update: RunUpdate & { imported: RunImport };
  steps: ReasoningStep[];
}

/** Where an imported run is kept: its own id (importRunId), and its parent's and root's in the same bundle. */
export interface RunPlace {
  runId: string;
  parentRunId?: string;
  rootRunId: string;
}

const approvalRecord = (a: AuditApproval): ApprovalRecord => ({
  callId: a.callId,
  stepId: a.stepId,
  toolName: a.toolName,
  arguments: a.arguments,
  argumentsHash: a.argumentsHash,
  reason: a.requiredBecause,
  approverRoles: a.approverRoles,
  runId: a.runId,
  requestedAt: a.requestedAt,
  expiresAt: a.expiresAt,
  status: a.decision,
  ...(a.decidedAt ? { decidedAt: a.decidedAt } : {}),
  ...(a.decidedBy ? { decidedBy: a.decidedBy } : {}),
  ...(a.note !== undefined ? { note: a.note } : {}),
});

/**
 * The store's write of one verified report. Pure. Refuses what the store cannot keep faithfully:
 * a narrower view than the auditor's (the store's reads narrow raw steps themselves, and a copy
 * already narrowed would be narrowed again, or widened by nobody), and a run that had not ended.
 * The run is kept under `place.runId`, never under the id its report names (which stays in
 * `imported.originalRunId`); the report's sub-agent reports are separate runs (`place` links them). What an export does not
 * carry stays out of the head: the plan, the agent definition, a fork's kept-through step.
 */
export function reportAsStoredRun(
  report: AuditReport,
  place: RunPlace,
  mark: Omit<RunImport, 'exportedAt' | 'exportedBy' | 'finalHash'>,
): ImportedRunWrite {
  const { run, outcome } = report;
  if (report.view.role !== 'auditor' || report.view.hiddenSteps > 0)
    throw new ImportRefusedError(
      'not_auditor_view',
      `${run.workflowId} was exported in the ${report.view.role ?? 'unfiltered'} view${report.view.hiddenSteps ? ` with ${report.view.hiddenSteps} step(s) hidden` : ''}; import takes the auditor's export (export --role auditor, the default), whose steps every view can be read from.`,
    );
  if (outcome.state !== 'finished')
    throw new ImportRefusedError(
      'unfinished',
      `${run.workflowId} was exported while it was still ${outcome.chainStatus}; export it again once it has ended.`,
    );
  if (run.tenant !== undefined && run.caller === undefined)
    throw new ImportRefusedError(
      'unreadable',
      `${run.workflowId} names a tenant but no caller; a report from thoughtline export names both.`,
    );
  const finalHash = report.integrity?.finalHash;
  if (!finalHash) throw new ImportRefusedError('unreadable', `${run.workflowId} is not sealed.`);
  const endedAt = run.completedAt ?? new Date(Date.parse(run.startedAt) + run.durationMs).toISOString();
  const imported: RunImport = {
    ...mark,
    originalRunId: run.workflowId,
    exportedAt: report.exportedAt,
    ...(report.exportedBy ? { exportedBy: report.exportedBy.id } : {}),
    finalHash,
  };
  return {
    update: {
      runId: place.runId,
      head: {
        schemaVersion: CHAIN_SCHEMA_VERSION,
        chainId: place.runId,
        agentName: run.agentName,
        task: run.task,
        startedAt: run.startedAt,
        completedAt: endedAt,
        status: run.status,
        ...(report.approvals.length ? { approvals: report.approvals.map(approvalRecord) } : {}),
        ...(report.stepsUnavailable ? { unavailable: report.stepsUnavailable } : {}),
        ...(run.caller
          ? { caller: { id: run.caller.id, roles: run.caller.roles, ...(run.tenant ? { tenant: run.tenant } : {}) } }
          : {}),
      },
      state: endedStateOf(outcome.terminationReason),
      terminationReason: outcome.terminationReason,
      endedAt,
      ...(place.parentRunId ? { parentRunId: place.parentRunId } : {}),
      rootRunId: place.rootRunId,
      complete: true,
      imported,
    },
    steps: report.steps,
  };
}
