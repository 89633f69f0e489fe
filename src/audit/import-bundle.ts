import type { RunImport } from '../domain/store';
import type { ChainStore } from '../store/chain-store';
import { AuditReport } from './audit-report';
import { ImportRefusedError } from './import-refused-error';
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
  /**
   * Whether Temporal holds a workflow with this id: such a run is refused (`conflict`), so an
   * import never stands in for a run Temporal holds (store reads come first). The API asks it;
   * the CLI, which writes the database directly as `store rebuild` does, works without Temporal.
   */
  inTemporal?: (runId: string) => Promise<boolean>;
  /** Default MAX_IMPORT_BYTES. */
  maxBytes?: number;
  now?: () => Date;
}

export interface ImportedRun {
  runId: string;
  parentRunId?: string;
  finalHash: string;
  steps: number;
  /** `already_imported`: the same sealed report was imported before; nothing was written. */
  outcome: 'imported' | 'already_imported';
}

/**
 * Imports the bytes of a JSON export (a report or a bundle), at most `maxBytes`, into the chain store, verified first: every report
 * must be intact and anchored by a trusted key or a kept final hash (the rule of `verify`), every
 * run ended and exported in the auditor's view, of a tenant the importer may write, and new to the
 * store unless the same sealed report was imported before (then it is skipped: importing twice
 * writes nothing twice). Any refusal refuses the whole bundle before anything is written
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
    const walk = (r: AuditReport, parentRunId: string | undefined, rootRunId: string) => {
      writes.push(reportAsStoredRun(r, { ...(parentRunId ? { parentRunId } : {}), rootRunId }, mark(check)));
      for (const child of r.children ?? []) walk(child, r.run.workflowId, rootRunId);
    };
    walk(report, undefined, report.run.workflowId);
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

/** What to write, checked against the store before any write: a run already there is skipped or refused. */
async function planWrites(
  writes: readonly ImportedRunWrite[],
  store: ChainStore,
  { mayWrite, inTemporal }: Pick<ImportOptions, 'mayWrite' | 'inTemporal'>,
): Promise<{ toWrite: ImportedRunWrite[]; runs: ImportedRun[] }> {
  const toWrite: ImportedRunWrite[] = [];
  const runs: ImportedRun[] = [];
  const seen = new Map<string, string>();
  for (const write of writes) {
    const { runId, imported, parentRunId, head } = write.update;
    const tenant = head.caller?.tenant;
    if (mayWrite && !mayWrite(tenant))
      throw new ImportRefusedError(
        'other_tenant',
        `${runId} is a run of ${tenant === undefined ? 'no tenant' : `tenant ${tenant}`}, which you may not import into; nothing was imported.`,
      );
    const twice = seen.get(runId);
    if (twice !== undefined) {
      if (twice === imported.finalHash) continue;
      throw new ImportRefusedError(
        'conflict',
        `The bundle holds two different reports of ${runId}; nothing was imported.`,
      );
    }
    seen.set(runId, imported.finalHash);
    const stored = await store.run(runId);
    const same = stored?.imported?.finalHash === imported.finalHash;
    if (stored && !same)
      throw new ImportRefusedError(
        'conflict',
        stored.imported
          ? `${runId} is in the store already, imported from another export (final hash ${stored.imported.finalHash}); nothing was imported.`
          : `${runId} is in the store already, from Temporal: an import never replaces a run the store keeps from Temporal; nothing was imported.`,
      );
    const entry = {
      runId,
      ...(parentRunId ? { parentRunId } : {}),
      finalHash: imported.finalHash,
      steps: write.steps.length,
    };
    if (!stored && (await inTemporal?.(runId)))
      throw new ImportRefusedError(
        'conflict',
        `Temporal holds a run ${runId}: an import never stands in for a run Temporal holds; nothing was imported.`,
      );
    // The same report, wholly written before: skipped. Written in part (an import cut short): written again.
    if (stored && same && stored.complete) runs.push({ ...entry, outcome: 'already_imported' });
    else {
      toWrite.push(write);
      runs.push({ ...entry, outcome: 'imported' });
    }
  }
  return { toWrite, runs };
}
