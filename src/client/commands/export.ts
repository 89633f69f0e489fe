import fs from 'node:fs';
import type { ViewerRole } from '../../shared';
import type { AgentClient } from '../agent-client';
import { buildAuditReport, type AuditReport } from '../audit-report';
import { renderAuditMarkdown } from '../render/render-audit-markdown';
import { connect } from '../runtime';
import { actingPerson } from './decide';
import { writeForStdout } from '../render/terminal-safe';
import { viewResult } from '../../shared/chain-view';

export type ExportFormat = 'json' | 'md';

/** Every Temporal run of one agent run (continue-as-new makes several), oldest first. */
async function runIdsOf(agents: AgentClient, workflowId: string): Promise<string[]> {
  const runs: Array<{ runId: string; startTime: Date }> = [];
  for await (const run of agents.client.workflow.list({ query: `WorkflowId = "${workflowId.replace(/"/g, '\\"')}"` })) {
    runs.push({ runId: run.runId, startTime: run.startTime });
  }
  return runs.sort((a, b) => a.startTime.getTime() - b.startTime.getTime()).map((r) => r.runId);
}

/** The audit report of a run, live or finished, in a role's view (default auditor: everything). */
export async function auditReport(agents: AgentClient, workflowId: string, role: ViewerRole, exportedBy?: { id: string; roles: string[] }): Promise<AuditReport> {
  const handle = agents.getHandle(workflowId);
  const { status, runId } = await handle.describe();
  // Every part in the role's view: the result's top-level fields (the final answer, the error) too.
  const finished = status.name === 'COMPLETED' ? viewResult(await handle.result(), role) : undefined;
  // A long run's result carries its latest steps; the earlier Temporal runs hold the rest.
  const chain = finished ? await agents.withEarlierSteps(workflowId, finished.chain, role) : await agents.chain(workflowId, role);
  const live = finished ? undefined : await agents.status(workflowId, role);
  const runIds = await runIdsOf(agents, workflowId).catch(() => [runId]);
  return buildAuditReport({
    workflowId,
    runIds: runIds.length ? runIds : [runId],
    chain,
    ...(finished ? { result: finished } : {}),
    ...(live ? { status: live } : {}),
    exportedAt: new Date().toISOString(),
    ...(exportedBy ? { exportedBy } : {}),
  });
}

/** `export <id> --format json|md [--role R] [--out FILE]`. */
export async function exportRun(workflowId: string, options: { format: ExportFormat; role: ViewerRole; out?: string; as?: string }): Promise<void> {
  const { agents, config } = await connect();
  try {
    const report = await auditReport(agents, workflowId, options.role, actingPerson(config, options));
    const text = options.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderAuditMarkdown(report);
    if (options.out) {
      fs.writeFileSync(options.out, text);
      process.stderr.write(`thoughtline: wrote the ${options.role} ${options.format} report of ${workflowId} to ${options.out}\n`);
    } else writeForStdout(text);
  } finally {
    await agents.client.connection.close();
  }
}
