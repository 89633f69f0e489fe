import fs from 'node:fs';
import { CallerContext, redactSecrets, type ReasoningChain, type ViewerRole } from '../../shared';
import type { AgentClient } from '../../client/agent-client';
import { modelCallsGoneNote, modelCallsOfRun } from '../../client/history/model-call-history';
import {
  buildAuditReport,
  sealReport,
  type AuditModelCall,
  type AuditReport,
  type ExportSigningKey,
} from '../../audit';
import { readRunInput } from '../../client/read-run-input';
import { runIdsOf } from '../../client/run-ids';
import { renderAuditMarkdown } from '../render/render-audit-markdown';
import { connect } from '../runtime';
import { actingPerson } from './decide';
import { writeForStdout } from '../render/terminal-safe';
import { viewResult } from '../../shared/chain-view';
import { loadExportSigningKey } from '../load-export-signing-key';

export type ExportFormat = 'json' | 'md';

/** Sub-agent levels an export nests (the run's own `maxDelegationDepth` is at most this in practice). */
export const MAX_EXPORT_DEPTH = 8;
/** JSON bytes of model calls one report carries; the rest are left out, and the report says so. */
export const MAX_EXPORTED_MODEL_CALL_BYTES = 32 * 1024 * 1024;

/** Who started the run and its tenant, from the chain, or for runs recorded before the chain named them, from the first input. */
async function startedBy(
  agents: AgentClient,
  workflowId: string,
  firstRunId: string,
  chain: ReasoningChain,
): Promise<NonNullable<Parameters<typeof buildAuditReport>[0]['startedBy']>> {
  const forkedFrom = chain.forkedFrom
    ? { forkedFrom: { workflowId: chain.forkedFrom.workflowId, atStep: chain.forkedFrom.atStep } }
    : {};
  if (chain.caller)
    return {
      caller: { id: chain.caller.id, roles: chain.caller.roles ?? [] },
      ...(chain.caller.tenant ? { tenant: chain.caller.tenant } : {}),
      ...forkedFrom,
    };
  const input = await readRunInput(agents.client, workflowId, firstRunId).catch(() => ({}) as Record<string, unknown>);
  const caller = CallerContext.safeParse(input.caller);
  if (!caller.success) return forkedFrom;
  return {
    caller: { id: caller.data.id, roles: caller.data.roles },
    ...(caller.data.tenant ? { tenant: caller.data.tenant } : {}),
    ...forkedFrom,
  };
}

/** The auditor's model calls, redacted like every view, up to the size limit. */
async function auditedModelCalls(
  agents: AgentClient,
  workflowId: string,
  runIds: string[],
  report: AuditReport,
): Promise<Pick<AuditReport, 'modelCalls' | 'modelCallsUnavailable'>> {
  const gone = report.stepsUnavailable;
  let calls: AuditModelCall[];
  try {
    calls = await modelCallsOfRun(agents.client, workflowId, runIds, report.steps, gone);
  } catch (err) {
    const failure = (err as Error).message;
    return {
      modelCallsUnavailable: gone
        ? modelCallsGoneNote(gone, { failure })
        : `The model calls could not be rebuilt from the history: ${failure}`,
    };
  }
  const partly = gone ? { modelCallsUnavailable: modelCallsGoneNote(gone, { calls }) } : {};
  const kept: AuditModelCall[] = [];
  let bytes = 0;
  for (const call of calls) {
    bytes += JSON.stringify(call).length;
    if (bytes > MAX_EXPORTED_MODEL_CALL_BYTES) {
      const limit = `Only the first ${kept.length} of ${calls.length} model calls fit the export's ${MAX_EXPORTED_MODEL_CALL_BYTES / 1024 / 1024} MiB limit for them.`;
      return {
        modelCalls: kept,
        modelCallsUnavailable: partly.modelCallsUnavailable ? `${partly.modelCallsUnavailable} ${limit}` : limit,
      };
    }
    kept.push(redactSecrets(call));
  }
  return { modelCalls: kept, ...partly };
}

/**
 * The audit report of a run, live or finished, in a role's view (default auditor: everything),
 * with its sub-agents' reports nested; the auditor's also carries every model call's whole
 * request and reply, rebuilt from the history. Not yet sealed.
 */
export async function auditReport(
  agents: AgentClient,
  workflowId: string,
  role: ViewerRole,
  exportedBy?: { id: string; roles: string[] },
  depth = 0,
): Promise<AuditReport> {
  const handle = agents.getHandle(workflowId);
  const { status, runId } = await handle.describe();
  // Every part in the role's view: the result's top-level fields (the final answer, the error) too.
  const finished = status.name === 'COMPLETED' ? viewResult(await agents.result(workflowId), role) : undefined;
  // A long run's result carries its latest steps; the earlier Temporal runs hold the rest.
  const chain = finished
    ? await agents.withEarlierSteps(workflowId, finished.chain, role)
    : await agents.chain(workflowId, role);
  const live = finished ? undefined : await agents.status(workflowId, role);
  const listed = await runIdsOf(agents.client, workflowId).catch(() => [runId]);
  const runIds = listed.length ? listed : [runId];
  const report = buildAuditReport({
    workflowId,
    runIds,
    startedBy: await startedBy(agents, workflowId, runIds[0]!, chain),
    chain,
    ...(finished ? { result: finished } : {}),
    ...(live ? { status: live } : {}),
    exportedAt: new Date().toISOString(),
    ...(exportedBy ? { exportedBy } : {}),
  });
  const calls = role === 'auditor' ? await auditedModelCalls(agents, workflowId, runIds, report) : {};
  const children: AuditReport[] = [];
  if (depth < MAX_EXPORT_DEPTH) {
    for (const sub of chain.subAgents ?? [])
      children.push(await auditReport(agents, sub.workflowId, role, exportedBy, depth + 1));
  }
  return { ...report, ...calls, ...(children.length ? { children } : {}) };
}

/** Seals a report and its children, deepest first, each with the same key when one is given. */
export function sealAll(report: AuditReport, key?: ExportSigningKey): AuditReport {
  const children = report.children?.map((child) => sealAll(child, key));
  return sealReport({ ...report, ...(children ? { children } : {}) }, key);
}

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

/** Several runs' sealed reports in one file; `verify` checks each. */
export interface AuditBundle {
  kind: 'thoughtline-audit-bundle';
  query: string;
  exportedAt: string;
  /** True when more runs matched than the limit let in. */
  truncated: boolean;
  reports: AuditReport[];
}

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
