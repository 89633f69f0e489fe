import fs from 'node:fs';
import type { ViewerRole } from '../../shared';
import type { AgentClient } from '../../client/agent-client';
import { auditReport, renderAuditMarkdown, sealAll, type AuditBundle, type AuditReport } from '../../audit';
import { connect } from '../runtime';
import { actingPerson } from './decide';
import { writeForStdout } from '../render/terminal-safe';
import { loadExportSigningKey } from '../load-export-signing-key';

export type ExportFormat = 'json' | 'md';

export interface ExportOptions {
  format: ExportFormat;
  role: ViewerRole;
  out?: string;
  as?: string;
  /** A keyring file (the decision-signing format); its first key signs. Default THOUGHTLINE_EXPORT_KEYRING. */
  keyring?: string;
}

/** Runs one `export --query` exports at most, by default and at most. */
export const DEFAULT_EXPORT_LIMIT = 100;
export const MAX_EXPORT_LIMIT = 1_000;

/**
 * Agent runs (root runs: the ones started with the `ThoughtlineAgent` attribute) matching a
 * visibility query, newest first, each once however many Temporal runs it has.
 */
export async function workflowIdsMatching(
  agents: AgentClient,
  query: string,
  limit: number,
): Promise<{ ids: string[]; truncated: boolean }> {
  const ids = new Set<string>();
  const full = `WorkflowType = 'agentWorkflow' AND ThoughtlineAgent IS NOT NULL AND (${query})`;
  for await (const run of agents.client.workflow.list({ query: full })) {
    if (ids.has(run.workflowId)) continue;
    if (ids.size === limit) return { ids: [...ids], truncated: true };
    ids.add(run.workflowId);
  }
  return { ids: [...ids], truncated: false };
}

/**
 * `export <id> --format json|md [--role R] [--out FILE] [--keyring FILE]`, or `export --query Q
 * [--limit N]` for many runs: sealed, and signed when a key is configured.
 */
export async function exportRun(
  target: { workflowId: string } | { query: string; limit?: number },
  options: ExportOptions,
): Promise<void> {
  const { agents, config } = await connect();
  try {
    const keyring = options.keyring ?? config.exportKeyring;
    const key = keyring ? loadExportSigningKey(keyring) : undefined;
    const exportedBy = actingPerson(config, options);
    const sealed = async (id: string) => sealAll(await auditReport(agents, id, options.role, exportedBy), key);
    let text: string;
    let what: string;
    if ('workflowId' in target) {
      const report = await sealed(target.workflowId);
      text = options.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderAuditMarkdown(report);
      what = `the ${options.role} ${options.format} report of ${target.workflowId} (final hash ${report.integrity!.finalHash}${key ? `, signed by ${key.keyId}` : ''})`;
    } else {
      const { ids, truncated } = await workflowIdsMatching(agents, target.query, target.limit ?? DEFAULT_EXPORT_LIMIT);
      const reports: AuditReport[] = [];
      for (const id of ids) reports.push(await sealed(id));
      const bundle: AuditBundle = {
        kind: 'thoughtline-audit-bundle',
        query: target.query,
        exportedAt: new Date().toISOString(),
        truncated,
        reports,
      };
      text =
        options.format === 'json'
          ? `${JSON.stringify(bundle, null, 2)}\n`
          : reports.map(renderAuditMarkdown).join('\n\n');
      what = `${options.role} ${options.format} reports of ${reports.length} run(s) matching the query${truncated ? ' (more matched: raise --limit)' : ''}`;
    }
    if (options.out) {
      fs.writeFileSync(options.out, text);
      process.stderr.write(`thoughtline: wrote ${what} to ${options.out}\n`);
    } else writeForStdout(text);
  } finally {
    await agents.client.connection.close();
  }
}
