import { CallerContext, redactSecrets, type AgentResult, type ReasoningChain, type ViewerRole } from '../domain';
import { viewChain, viewResult } from '../domain/chain/chain-view';
import { isEmptyLens } from '../domain/visibility/lens-level';
import type { ViewLens } from '../domain/visibility/view-lens';
import { chainQuery } from '../workflows/messages';
import { identityOfChain, type LensOfRun } from '../client/runs/run-lens';
import type { AgentClient } from '../client/agent-client';
import { modelCallsGoneNote, modelCallsOfRun } from '../client/history/model-call-history';
import { readRunInput } from '../client/runs/read-run-input';
import { runIdsOf } from '../client/runs/run-ids';
import type { RunScore } from '../domain/evaluation/run-scores';
import { buildAuditReport, type AuditModelCall, type AuditReport } from './audit-report';
import { modelCallsInLens, modelCallsLeftOutNote } from './model-calls-in-lens';
import { sealReport, type ExportSigningKey } from './seal-report';

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

/**
 * The run's whole chain in the auditor's view without the lens, every step the lens hides
 * included: what the model calls pair with, and what `modelCallsInLens` narrows them by. With no
 * lens it is the chain the report already holds.
 */
async function unlensedChain(
  agents: AgentClient,
  workflowId: string,
  raw: AgentResult | undefined,
  chain: ReasoningChain,
  lens: ViewLens | undefined,
): Promise<ReasoningChain> {
  if (isEmptyLens(lens)) return chain;
  const latest = raw
    ? viewChain(raw.chain, 'auditor')
    : await agents.getHandle(workflowId).query(chainQuery, 'auditor');
  return agents.withEarlierSteps(workflowId, latest, 'auditor');
}

/**
 * The auditor's model calls through the lens (the policy's security layer binds the auditor too:
 * see `modelCallsInLens`), redacted like every view, up to the size limit.
 */
async function auditedModelCalls(
  agents: AgentClient,
  workflowId: string,
  runIds: string[],
  chain: ReasoningChain,
  lens: ViewLens | undefined,
): Promise<Pick<AuditReport, 'modelCalls' | 'modelCallsUnavailable'>> {
  const gone = chain.unavailable;
  let all: AuditModelCall[];
  try {
    all = await modelCallsOfRun(agents.client, workflowId, runIds, chain.steps, gone);
  } catch (err) {
    const failure = (err as Error).message;
    return {
      modelCallsUnavailable: gone
        ? modelCallsGoneNote(gone, { failure })
        : `The model calls could not be rebuilt from the history: ${failure}`,
    };
  }
  const { calls, leftOut } = modelCallsInLens(all, chain, lens);
  const notes = [
    ...(gone ? [modelCallsGoneNote(gone, { calls: all })] : []),
    ...(leftOut > 0 ? [modelCallsLeftOutNote(leftOut)] : []),
  ];
  const partly = notes.length > 0 ? { modelCallsUnavailable: notes.join(' ') } : {};
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

/** The run's scores, or why they could not be read: an export never fails for them. */
async function scoresOf(
  agents: AgentClient,
  workflowId: string,
): Promise<{ scores?: RunScore[]; scoresUnavailable?: string }> {
  try {
    return { scores: await agents.scores(workflowId) };
  } catch (err) {
    return { scoresUnavailable: `The run's scores could not be read: ${(err as Error).message}` };
  }
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
  // Every part in the role's view: the result's top-level fields (the final answer, the error) too,
  // narrowed by the client's visibility policy for this run (agents.lensOf; none without one).
  const raw = status.name === 'COMPLETED' ? await agents.result(workflowId) : undefined;
  const lensOf = (chain: ReasoningChain) => lensOfClient(agents)(identityOfChain(chain), role);
  const lens = raw ? lensOf(raw.chain) : undefined;
  const finished = raw ? viewResult(raw, role, lens) : undefined;
  // A long run's result carries its latest steps; the earlier Temporal runs hold the rest.
  const chain = finished
    ? await agents.withEarlierSteps(workflowId, finished.chain, role, undefined, lens)
    : await agents.chain(workflowId, role);
  const runLens = lens ?? lensOf(chain);
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
    ...(await scoresOf(agents, workflowId)),
  });
  const calls =
    role === 'auditor'
      ? await auditedModelCalls(
          agents,
          workflowId,
          runIds,
          await unlensedChain(agents, workflowId, raw, chain, runLens),
          runLens,
        )
      : {};
  const children: AuditReport[] = [];
  // A policy that shows sub-agents' chains as summaries or not at all nests none of their reports.
  if (depth < MAX_EXPORT_DEPTH && (runLens?.subChains ?? 'full') === 'full') {
    for (const sub of chain.subAgents ?? [])
      children.push(await auditReport(agents, sub.workflowId, role, exportedBy, depth + 1));
  }
  return { ...report, ...calls, ...(children.length ? { children } : {}) };
}

/** The client's lens maker; none (no policy) for a client made without one, such as a test's stand-in. */
function lensOfClient(agents: AgentClient): LensOfRun {
  return typeof agents.lensOf === 'function' ? agents.lensOf : () => undefined;
}

/** Seals a report and its children, deepest first, each with the same key when one is given. */
export function sealAll(report: AuditReport, key?: ExportSigningKey): AuditReport {
  const children = report.children?.map((child) => sealAll(child, key));
  return sealReport({ ...report, ...(children ? { children } : {}) }, key);
}
