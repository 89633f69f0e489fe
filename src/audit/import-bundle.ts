import type { RunImport } from '../domain/store';
import type { ChainStore } from '../store/chain-store';
import { AuditReport } from './audit-report';
import { ImportRefusedError } from './import-refused-error';
import { importRunId } from './import-run-id';
import { reportAsStoredRun, type ImportedRunWrite } from './report-as-stored-run';
import { allProblems, verifyReport, type VerifyOptions } from './verify-report';

/**
 * The largest bundle `import` reads (the CLI's file, the API's body), in bytes. A bigger export
 * is split with `export --query … --limit N`.
 */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;
/** Steps per `putSteps` call, as the projection writes them. */
const STEPS_PER_WRITE = 500;

/** The reports a JSON export holds: one report, or a bundle of them (`export --query`). */
export function reportsIn(json: unknown): unknown[] {
  const bundle = json as { kind?: unknown; reports?: unknown } | null;
  return bundle && bundle.kind === 'thoughtline-audit-bundle' && Array.isArray(bundle.reports)
    ? bundle.reports
    : [json];
}

export interface ImportOptions extends VerifyOptions {
  /** Who imports: from their authentication (the API's token, the CLI's THOUGHTLINE_USER). */
  importedBy: string;
  /** Where the bundle came from: a file name, or `api`. */
  from: string;
  /** Whether the importer may write a run of this tenant (undefined: a run without one). Default: any. */
  mayWrite?: (tenant: string | undefined) => boolean;
  /** Default MAX_IMPORT_BYTES. */
  maxBytes?: number;
  now?: () => Date;
}

export interface ImportedRun {
  /** Where the run is kept: an id of the imports' own (`import:…`), never a live run's. */
  runId: string;
  /** The workflow id its report names (the exported run's). */
  originalRunId: string;
  /** The parent's id in the store (`import:…`), for a sub-agent's report. */
  parentRunId?: string;
  finalHash: string;
  steps: number;
  /** `already_imported`: the same sealed report was imported before; nothing was written. */
  outcome: 'imported' | 'already_imported';
}

/**
 * Imports the bytes of a JSON export (a report or a bundle), at most `maxBytes`, into the chain store, verified first: every report
 * must be intact and anchored by a trusted key or a kept final hash (the rule of `verify`), every
 * run ended and exported in the auditor's view, of a tenant the importer may write. Each run is kept
 * under an id of the imports' own (importRunId: its tenant and final hash), never the id its report
 * names, so an import never takes, or is taken by, a run of Temporal; the same sealed report
 * imported again is skipped (importing twice writes nothing twice). Any refusal refuses the whole bundle before anything is written
 * (ImportRefusedError). Each run is written as the projection writes one, its row last marked
 * `complete`, `temporalGone` and `imported`; sub-agents' reports become runs linked to their parent.
 */
export async function importBundle(
  bytes: Uint8Array | string,
  store: ChainStore,
  options: ImportOptions,
): Promise<ImportedRun[]> {
  const max = options.maxBytes ?? MAX_IMPORT_BYTES;
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes, 'utf8') : bytes.byteLength;
  if (size > max)
    throw new ImportRefusedError(
      'too_large',
      `The bundle is ${size} bytes, over the ${max}-byte import limit; export fewer runs at a time (export --query … --limit N).`,
    );
  let json: unknown;
  try {
    json = JSON.parse(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new ImportRefusedError(
      'unreadable',
      'The bundle is not JSON: import reads what `thoughtline export --format json` writes.',
    );
  }
  return importReports(json, store, options);
}

/**
 * `importBundle` after the bundle was read as JSON (the API's body, parsed under the same byte
 * limit): the same checks, the same writes.
 */
export async function importReports(json: unknown, store: ChainStore, options: ImportOptions): Promise<ImportedRun[]> {
  const reports = reportsIn(json);
  if (reports.length === 0) throw new ImportRefusedError('unreadable', 'The bundle holds no report.');

  const verified = reports.map((report) => verified1(report, options));
  const now = (options.now ?? (() => new Date()))().toISOString();
  const mark = (
    check: ReturnType<typeof verified1>['check'],
  ): Omit<RunImport, 'exportedAt' | 'exportedBy' | 'finalHash'> => ({
    importedAt: now,
    importedBy: options.importedBy,
    from: options.from,
    anchor: check.anchor === 'trusted_key' ? 'trusted_key' : 'final_hash',
    ...(check.signature.state === 'trusted' ? { keyId: check.signature.keyId } : {}),
  });
  const writes: ImportedRunWrite[] = [];
  for (const { report, check } of verified) {
    // A report without a seal gets an id of nothing here; reportAsStoredRun refuses it before any write.
    const idOf = (r: AuditReport) => importRunId(r.run.tenant, r.integrity?.finalHash ?? '');
    const walk = (r: AuditReport, parentRunId: string | undefined, rootRunId: string) => {
      const runId = idOf(r);
      writes.push(reportAsStoredRun(r, { runId, ...(parentRunId ? { parentRunId } : {}), rootRunId }, mark(check)));
      for (const child of r.children ?? []) walk(child, runId, rootRunId);
    };
    walk(report, undefined, idOf(report));
  }
  const plan = await planWrites(writes, store, options);
  for (const write of plan.toWrite) {
    const { update, steps } = write;
    await store.putRun({ ...update, complete: false });
    for (let i = 0; i < steps.length; i += STEPS_PER_WRITE)
      await store.putSteps(update.runId, steps.slice(i, i + STEPS_PER_WRITE));
    await store.putRun(update);
  }
  return plan.runs;
}

/** One report checked and read, or the refusal naming its first problem. */
function verified1(report: unknown, options: VerifyOptions) {
  const check = verifyReport(report, {
    ...(options.trustedKeys?.length ? { trustedKeys: options.trustedKeys } : {}),
    ...(options.finalHashes?.length ? { finalHashes: options.finalHashes } : {}),
  });
  const problems = allProblems(check);
  if (problems.length > 0)
    throw new ImportRefusedError(
      'not_verified',
      `${check.workflowId} does not verify: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}. Nothing was imported.`,
      problems,
    );
  if (check.anchor === 'none')
    throw new ImportRefusedError(
      'not_verified',
      `${check.workflowId} is consistent, but nothing ties it to its author: give the public key it was signed with, or the final hash printed when it was exported (${check.finalHash}). Nothing was imported.`,
    );
  const parsed = AuditReport.safeParse(report);
  if (!parsed.success)
    throw new ImportRefusedError(
      'unreadable',
      `${check.workflowId} is intact but does not read as a report of this version: ${parsed.error.issues[0]?.message ?? 'unknown shape'}.`,
    );
  return { report: parsed.data, check };
}

/**
 * What to write, checked against the store before any write: a run imported before from the same
 * report is skipped. Ids are derived from the tenant and the report's seal, so the store is asked
 * only about ids of the importer's own tenant: no answer here depends on another tenant's runs.
 */
async function planWrites(
  writes: readonly ImportedRunWrite[],
  store: ChainStore,
  { mayWrite }: Pick<ImportOptions, 'mayWrite'>,
): Promise<{ toWrite: ImportedRunWrite[]; runs: ImportedRun[] }> {
  const toWrite: ImportedRunWrite[] = [];
  const runs: ImportedRun[] = [];
  const seen = new Set<string>();
  for (const write of writes) {
    const { runId, imported, parentRunId, head } = write.update;
    const originalRunId = imported.originalRunId ?? runId;
    const tenant = head.caller?.tenant;
    if (mayWrite && !mayWrite(tenant))
      throw new ImportRefusedError(
        'other_tenant',
        `${originalRunId} is a run of ${tenant === undefined ? 'no tenant' : `tenant ${tenant}`}, which you may not import into; nothing was imported.`,
      );
    // The same sealed report twice in one bundle: one run.
    if (seen.has(runId)) continue;
    seen.add(runId);
    const stored = await store.run(runId);
    // Only an import of this very report (same tenant, same seal) can sit under its id.
    if (stored && stored.imported?.finalHash !== imported.finalHash)
      throw new ImportRefusedError(
        'conflict',
        `The store holds another run under ${runId}, the id this report of ${originalRunId} is kept under; nothing was imported.`,
      );
    const entry = {
      runId,
      originalRunId,
      ...(parentRunId ? { parentRunId } : {}),
      finalHash: imported.finalHash,
      steps: write.steps.length,
    };
    // The same report, wholly written before: skipped. Written in part (an import cut short): written again.
    if (stored && stored.complete) runs.push({ ...entry, outcome: 'already_imported' });
    else {
      toWrite.push(write);
      runs.push({ ...entry, outcome: 'imported' });
    }
  }
  return { toWrite, runs };
}
