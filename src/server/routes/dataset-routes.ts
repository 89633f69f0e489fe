import path from 'node:path';
import { z } from 'zod';
import { importAsCase, runAsCase } from '../../audit';
import { isImportRunId } from '../../domain/store/import-run-id';
import { EvalCase } from '../../domain/evaluation/eval-case';
import { DatasetError } from '../../eval/dataset';
import { appendCases, CaseFromRunError, CaseFromRunRefusal, tenantDatasetFolder } from '../../eval/from-run';
import { ApiError, type ApiErrorCode } from '../api-error';
import { defineRoute, type ApiRoute, type ApiContext } from '../api-route';
import type { Identity } from '../auth/identity';
import { runNotFound } from '../run-access';
import { storedTarget } from './store-read';

/**
 * A dataset's name under `serve --datasets DIR`: its file is `<name>.jsonl` in the caller's
 * tenant's folder (`DIR/tenants/<tenant>/`, or `DIR` for a caller without a tenant).
 */
export const DatasetName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/, 'letters, digits, "-", "_" and "." (not first) only');

export const DatasetParams = z.strictObject({ name: DatasetName });
export const AddCaseBody = z.strictObject({
  /** The ended run that becomes the case. */
  runId: z.string().min(1).max(1_000),
});
export const AddCaseResponse = z.object({
  dataset: z.string(),
  case: EvalCase,
  recording: z.object({ path: z.string(), lines: z.number().int().nonnegative(), bytes: z.number().int() }),
});

/** Each refusal's HTTP answer: the run's state (409), its size (413), the policy (403), a run the caller cannot see (404). */
const STATUS_OF: Readonly<Record<CaseFromRunRefusal, ApiErrorCode>> = {
  not_found: 'not_found',
  not_ended: 'conflict',
  not_replayable: 'conflict',
  needs_others: 'conflict',
  incomplete: 'conflict',
  marked_bad: 'conflict',
  too_large: 'payload_too_large',
  not_whole_in_view: 'forbidden',
  held_by_guardrail: 'forbidden',
  duplicate: 'conflict',
};

/**
 * The case of the caller's run: an import (`import:…`) from the chain store, its tenant checked on
 * the stored row; any other id from Temporal (accessRun). The policy binds the auditor too: a run
 * it narrows in the auditor's view is refused whole. Another tenant's run is the same 404 as none.
 */
async function caseOf(ctx: ApiContext, identity: Identity, runId: string) {
  if (isImportRunId(runId)) {
    if (!ctx.store) throw runNotFound();
    return importAsCase(ctx.store, runId, identity.tenant ?? null, ({ run }) =>
      ctx.lensFor?.(identity, 'auditor', storedTarget(run)),
    );
  }
  const access = await ctx.accessRun(identity, runId);
  const lens = await ctx.lensFor?.(identity, 'auditor', access);
  return runAsCase(ctx.agents, runId, () => lens);
}

export const addCaseRoute = defineRoute({
  method: 'POST',
  url: '/v1/datasets/:name/cases',
  operationId: 'addDatasetCase',
  summary:
    "Make an ended run a case of one of the caller's tenant's datasets on the server (`serve --datasets DIR`): its recorded model replies and tool results, secrets redacted, beside it; the auditor's view only",
  params: DatasetParams,
  body: AddCaseBody,
  response: { status: 201, description: 'The case as appended, and its recording', schema: AddCaseResponse },
  errors: [400, 401, 403, 404, 409, 413, 503],
  async handle({ ctx, identity, params, body }) {
    // A case carries every model call whole (what GET /v1/runs/{id}/model-calls shows): the auditor's view only.
    ctx.viewFor(identity, 'auditor');
    if (!ctx.datasetsDir)
      throw new ApiError('unavailable', 'This server keeps no datasets: start it with `serve --datasets DIR`.');
    try {
      const made = await caseOf(ctx, identity, body.runId);
      // The dataset is the caller's tenant's, by its identity: another tenant's name is another file.
      const file = path.join(tenantDatasetFolder(ctx.datasetsDir, identity.tenant), `${params.name}.jsonl`);
      appendCases(file, [made]);
      return {
        dataset: params.name,
        case: made.case,
        recording: {
          path: made.recordingPath,
          lines: made.recording.trim().split('\n').length,
          bytes: Buffer.byteLength(made.recording),
        },
      };
    } catch (err) {
      if (err instanceof CaseFromRunError)
        throw new ApiError(STATUS_OF[err.refusal], err.message, [{ path: ['runId'], message: err.refusal }]);
      if (err instanceof DatasetError)
        throw new ApiError('conflict', `The dataset ${params.name} on the server cannot be read: ${err.message}`);
      throw err;
    }
  },
});

export const DATASET_ROUTES: readonly ApiRoute[] = [addCaseRoute];
