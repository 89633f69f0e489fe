import { z } from 'zod';
import { ForkHazard, ForkOrigin, ModelProviderName } from '../../domain';
import { isImportRunId } from '../../domain/store/import-run-id';
import { isEmptyLens } from '../../domain/visibility/lens-level';
import { ForkError } from '../../client/fork/fork-error';
import { UnknownRunError } from '../../client/errors/unknown-run-error';
import { planForkOfRead } from '../../client/fork/fork-import';
import { forkWorkflowId, type ForkOptions } from '../../client/fork/fork-run';
import type { PlannedFork } from '../../client/fork/plan-fork';
import { readImportedRun } from '../../client/store/read-imported-run';
import { ApiError } from '../api-error';
import { defineRoute, type ApiContext, type ApiRoute } from '../api-route';
import { RunIdParams } from '../api-schemas';
import type { Identity } from '../auth/identity';
import { signedDecisionKeys } from '../protocols/protocol-run-input';
import { runNotFound } from '../run-access';
import { storedTarget } from './store-read';

export const ForkRunBody = z.strictObject({
  /** The step to fork at: the fork keeps every step up to the next model call after it, and makes that call again. */
  atStep: z.number().int().nonnegative(),
  /** The model from there on; the provider stays the original's unless given. */
  model: z.strictObject({ model: z.string().min(1).max(200), provider: ModelProviderName.optional() }).optional(),
  /** An instruction delivered before the fork's first model call. */
  steer: z.string().min(1).max(2_000).optional(),
  /** The registered tools the fork may use, instead of the original's. */
  tools: z.array(z.string().min(1).max(200)).max(200).optional(),
  /** Plan only: say what the fork would keep and may repeat, and start nothing. */
  dryRun: z.boolean().default(false),
});

export const ForkRunResponse = z.object({
  /** The fork's run id; absent with `dryRun`. */
  runId: z.string().optional(),
  fork: ForkOrigin,
  change: z.string(),
  hazards: z.array(ForkHazard),
  /** Set when the conversation was rebuilt from an import's steps: what it lacks. */
  rebuilt: z.string().optional(),
});

/** The policy binds the auditor too: a run it narrows in the auditor's view is not forked, as it is not made a case. */
const narrowed = (): ApiError =>
  new ApiError(
    'forbidden',
    "The visibility policy narrows this run in the auditor's view; a fork carries its steps and conversation whole.",
  );

/**
 * The lens check and the plan, on either side of the id spaces: an import from the chain store
 * (its tenant checked on the stored row), any other id from Temporal (accessRun). Another
 * tenant's run, and an import with no store to read it from, are the same 404 as none.
 */
async function planOf(ctx: ApiContext, identity: Identity, runId: string, options: ForkOptions): Promise<PlannedFork> {
  if (isImportRunId(runId)) {
    if (!ctx.store) throw runNotFound();
    const tenant = identity.tenant ?? null;
    const read = await readImportedRun(ctx.store, runId, tenant);
    if (!read) throw runNotFound();
    if (!isEmptyLens(await ctx.lensFor?.(identity, 'auditor', storedTarget(read.run)))) throw narrowed();
    return planForkOfRead(read, options);
  }
  const access = await ctx.accessRun(identity, runId);
  if (!isEmptyLens(await ctx.lensFor?.(identity, 'auditor', access))) throw narrowed();
  return ctx.agents.planFork(runId, options);
}

export const forkRunRoute = defineRoute({
  method: 'POST',
  url: '/v1/runs/:id/fork',
  operationId: 'forkRun',
  summary:
    "Start a new run from a run's conversation and spend at a step (up to its next model call), with a change; an imported run (`import:…`) forks from its stored steps. The auditor's view only: the fork carries the original's steps and conversation whole",
  params: RunIdParams,
  body: ForkRunBody,
  response: { status: 201, description: 'The fork started (or, with dryRun, planned)', schema: ForkRunResponse },
  errors: [400, 401, 403, 404, 409, 503],
  async handle({ ctx, identity, params, body }) {
    // The fork's model reads every kept step and reply whole, so forking is reading in the auditor's view.
    ctx.viewFor(identity, 'auditor');
    const caller = { id: identity.id, roles: identity.roles, ...(identity.tenant ? { tenant: identity.tenant } : {}) };
    const options: ForkOptions = {
      atStep: body.atStep,
      caller,
      ...(body.model ? { model: body.model } : {}),
      ...(body.steer ? { steer: body.steer } : {}),
      ...(body.tools ? { tools: body.tools } : {}),
    };
    let planned: PlannedFork;
    try {
      planned = await planOf(ctx, identity, params.id, options);
    } catch (err) {
      // No such step, no model call after it, a text-protocol import, a start too large: the run's state, not the body's form.
      if (err instanceof UnknownRunError) throw runNotFound();
      if (err instanceof ForkError) throw new ApiError('conflict', err.message);
      throw err;
    }
    const { from, change, hazards, rebuilt } = planned.start;
    const plan = { fork: from, change, hazards, ...(rebuilt ? { rebuilt } : {}) };
    if (body.dryRun) return plan;
    const handle = await ctx.agents.start(
      { ...planned.input, ...signedDecisionKeys(ctx) },
      { workflowId: forkWorkflowId(params.id) },
    );
    return { runId: handle.workflowId, ...plan };
  },
});

export const FORK_ROUTES: readonly ApiRoute[] = [forkRunRoute];
