import { z } from 'zod';
import { importReports, ImportRefusedError, MAX_IMPORT_BYTES, type ImportRefusal } from '../../audit';
import { ApiError, type ApiErrorCode } from '../api-error';
import { defineRoute, type ApiRoute } from '../api-route';
import { allowedViews } from '../auth/view-policy';

/** One key or hash, or several (`?publicKey=a&publicKey=b`). */
const OneOrMany = z
  .union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).max(50)])
  .optional()
  .transform((v) => (v === undefined ? [] : typeof v === 'string' ? [v] : v));

export const ImportQuery = z.strictObject({
  /** A public key (base64url) the reports may be signed with. */
  publicKey: OneOrMany,
  /** A final hash (`sha256:…`) kept from the export. */
  finalHash: OneOrMany,
});

/** The body: the JSON export exactly as `thoughtline export --format json` wrote it (a report, or a bundle). */
export const ImportBody = z
  .record(z.string(), z.unknown())
  .describe('A JSON export as `thoughtline export --format json` wrote it: one report, or a bundle of them');

export const ImportedRunBody = z.object({
  /** Where the run is kept and read (`GET /v1/runs/{runId}/chain`): `import:…`, an id no live run can have. */
  runId: z.string(),
  /** The workflow id the report names: the run's id where it was exported. */
  originalRunId: z.string(),
  parentRunId: z.string().optional(),
  finalHash: z.string(),
  steps: z.number().int().nonnegative(),
  /** `already_imported`: the same sealed report was imported before; nothing was written. */
  outcome: z.enum(['imported', 'already_imported']),
});
export const ImportResponse = z.object({ runs: z.array(ImportedRunBody) });

const STATUS_OF_REFUSAL: Readonly<Record<ImportRefusal, ApiErrorCode>> = {
  too_large: 'payload_too_large',
  unreadable: 'bad_request',
  not_verified: 'bad_request',
  not_auditor_view: 'bad_request',
  unfinished: 'bad_request',
  other_tenant: 'forbidden',
  conflict: 'conflict',
};

/**
 * `POST /v1/imports`: `thoughtline import` over HTTP. Only a caller who may read the auditor's
 * view imports (an export holds every step raw), and only runs of their own tenant, so an upload
 * can never put a run where another tenant reads it. Each run is kept under an id of the imports'
 * own (`import:…`), never the id its report names, so an upload never takes a live run's id, and
 * nothing here asks Temporal or reads another tenant's rows: every answer is the same whatever
 * other tenants hold. Refused whole, with nothing written, as the CLI refuses; the refusal's reason
 * is the first issue's path.
 */
export const importRoute = defineRoute({
  method: 'POST',
  url: '/v1/imports',
  operationId: 'importExport',
  summary:
    "Verify a sealed JSON export and keep its runs in the chain store, marked imported; needs the auditor's view; refused whole, with nothing written, when any report does not verify",
  query: ImportQuery,
  body: ImportBody,
  bodyLimit: MAX_IMPORT_BYTES,
  response: { status: 201, description: 'The runs imported, or skipped as imported before', schema: ImportResponse },
  errors: [400, 401, 403, 409, 413, 503],
  async handle({ ctx, identity, query, body }) {
    if (!allowedViews(identity.roles, ctx.policy?.policy).includes('auditor'))
      throw new ApiError(
        'forbidden',
        `Importing needs a role that reads the auditor's view (an export holds every step); you have ${identity.roles.join(', ') || 'none'}.`,
      );
    const store = ctx.store;
    if (!store)
      throw new ApiError(
        'unavailable',
        'Importing needs the chain store: run serve with THOUGHTLINE_STORE set (unset means the SQLite file .thoughtline/store.sqlite; "off" disables it).',
      );
    try {
      const runs = await importReports(body, store, {
        trustedKeys: query.publicKey,
        finalHashes: query.finalHash,
        importedBy: identity.id,
        from: 'api',
        mayWrite: (tenant) => (tenant ?? null) === (identity.tenant ?? null),
      });
      return { runs };
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (err instanceof ImportRefusedError)
        throw new ApiError(STATUS_OF_REFUSAL[err.reason], err.message, [
          { path: [err.reason], message: err.message },
          ...err.problems.slice(1).map((p) => ({ path: [err.reason], message: p })),
        ]);
      throw new ApiError('unavailable', `The chain store (${store.kind}) could not be written now; retry shortly.`);
    }
  },
});

export const IMPORT_ROUTES: readonly ApiRoute[] = [importRoute];
