import fs from 'node:fs';
import path from 'node:path';
import type { ViewerRole } from '../../../domain';
import type { AgentClient } from '../../../client/agent-client';
import { auditReport, renderAuditMarkdown, sealAll, type AuditBundle, type AuditReport } from '../../../audit';
import type { LoadedPolicy } from '../../../governance/load-visibility-policy';
import { withPolicy } from '../../spec/policy-option';
import { connect } from '../../setup/runtime';
import { actingPerson } from '../people-in-the-loop/decide-call';
import { terminalSafe, writeForStdout } from '../../render/terminal-safe';
import { loadExportSigningKey } from '../../setup/load-export-signing-key';
import { UsageError } from '../../spec/usage-error';
import { counted } from '../../../domain/text/counted';

export type ExportFormat = 'json' | 'md';

/** The formats by the extension of the file they are written to (lower case). */
const FORMAT_OF_EXTENSION: ReadonlyMap<string, ExportFormat> = new Map([
  ['.json', 'json'],
  ['.md', 'md'],
  ['.markdown', 'md'],
]);
/** How the person is told which format was written. */
const FORMAT_NAME: Readonly<Record<ExportFormat, string>> = { json: 'JSON', md: 'markdown' };

/**
 * The format of an export: `--format` when given, else the extension of `--out` (.json: JSON,
 * .md or .markdown: markdown), else markdown on stdout. Throws a UsageError for a format it does not
 * know, for an `--out` whose extension names no format when there is no `--format` to go by, and
 * for a `--format` its `--out` contradicts (`--format md --out a.json`). An explicit `--format`
 * with an extension that names no format (`--format json --out report.txt`) is taken as asked.
 */
export function exportFormatFor(format: string | undefined, out: string | undefined): ExportFormat {
  if (format !== undefined && format !== 'json' && format !== 'md') throw new UsageError('--format takes json or md.');
  const extension = out === undefined ? undefined : path.extname(out).toLowerCase();
  const implied = extension === undefined ? undefined : FORMAT_OF_EXTENSION.get(extension);
  if (format !== undefined && implied !== undefined && implied !== format)
    throw new UsageError(
      `--format ${format} writes ${FORMAT_NAME[format]}, but --out ${out} names a ${extension} file; drop --format, or name the file ${format === 'json' ? '.json' : '.md'}.`,
    );
  if (format !== undefined) return format;
  if (out !== undefined && implied === undefined)
    throw new UsageError(
      `--out ${out}: ${extension ? `"${extension}"` : 'a name without an extension'} names no format; name the file .json (JSON) or .md (markdown), or add --format json|md.`,
    );
  return implied ?? 'md';
}

export interface ExportOptions {
  format: ExportFormat;
  role: ViewerRole;
  out?: string;
  as?: string;
  /** A keyring file (the decision-signing format); its first key signs. Default THOUGHTLINE_EXPORT_KEYRING. */
  keyring?: string;
  /** The visibility policy the report's view goes through (`--policy`, THOUGHTLINE_VISIBILITY_POLICY). */
  policy?: LoadedPolicy;
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
 * `export <id> [--format json|md] [--role R] [--out FILE] [--keyring FILE]`, or `export --query Q
 * [--limit N]` for many runs: sealed, and signed when a key is configured. The format comes from
 * exportFormatFor; stderr says which was written, and where.
 */
export async function exportRun(
  target: { workflowId: string } | { query: string; limit?: number },
  options: ExportOptions,
): Promise<void> {
  const connected = await connect();
  const { config } = connected;
  const agents = withPolicy(connected.agents, options.policy);
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
      what = `the ${options.role} report of ${target.workflowId} as ${FORMAT_NAME[options.format]} (final hash ${report.integrity!.finalHash}${key ? `, signed by ${key.keyId}` : ''})`;
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
      what = `${options.role} reports of ${counted(reports.length, 'run')} matching the query as ${options.format === 'json' ? 'a JSON audit bundle' : 'markdown'}${truncated ? ' (more matched: raise --limit)' : ''}`;
    }
    if (options.out) fs.writeFileSync(options.out, text);
    else writeForStdout(text);
    // On stderr, so a report piped from stdout stays whole.
    process.stderr.write(terminalSafe(`thoughtline: wrote ${what} to ${options.out ?? 'stdout'}\n`));
  } finally {
    await agents.client.connection.close();
  }
}
