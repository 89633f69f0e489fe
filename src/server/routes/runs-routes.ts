import { signedDecisionKeys } from '../protocols/protocol-run-input';
import { redactSecrets, type AgentInputInit, type AgentStatus } from '../../domain';
import { protoKeyProblem } from '../../domain/text/own-value';
import { modelCallsGoneNote, modelCallsOfRun, ModelCallHistoryError } from '../../client/history/model-call-history';
import { runIdsOf } from '../../client/runs/run-ids';
import { AgentInputConflictError } from '../../client/errors/agent-input-conflict-error';
import { ApiError } from '../api-error';
import { defineRoute, type ApiRoute } from '../api-route';
import {
  ChainQuery,
  ChainResponse,
  ModelCallsResponse,
  ListRunsQuery,
  ListRunsResponse,
  RunIdParams,
  RunQuery,
  RunStatusResponse,
  SERVER_SET_FIELDS,
  StartRunBody,
  StartRunHeaders,
  StartRunResponse,
} from '../api-schemas';
import { allowedViews } from '../auth/view-policy';
import { liveRead } from '../live-read';
import { listRuns, refuseSpendFilter } from './list-runs';
import { listStoredRuns, wantsStoreOrder } from './list-stored-runs';
import { startIdempotently } from './idempotent-start';
import { endingInView, readEnding } from '../../client/ending/read-ending';
import type { RunEnding } from '../../domain/run/run-ending';
import type { RunFacts } from '../run-access';
import { pageOfChain, readFromStore, storedTarget, wholeChainAfterStore } from './store-read';
import { chainInLens, progressFor, statusInLens, subChainShown, withoutSteps } from '../policy/apply-lens';
import { modelCallsInLens, modelCallsLeftOutNote, SUB_CHAIN_SUMMARY_NOTE } from '../../audit/model-calls-in-lens';

const runPath = (id: string): string => `/v1/runs/${encodeURIComponent(id)}`;

/** `caller` and the other server-set fields named as such, before the generic unknown-field refusal. */
function refuseServerSet(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const present = SERVER_SET_FIELDS.filter((field) => Object.hasOwn(body, field));
  if (present.length === 0) return;
  throw new ApiError(
    'bad_request',
    `${present.join(', ')} ${present.length === 1 ? 'is' : 'are'} set by the server (the caller comes from your token); leave ${present.length === 1 ? 'it' : 'them'} out of the body.`,
    present.map((field) => ({ path: [field], message: 'set by the server' })),
  );
}

/** An inline `definition`, named as such before the generic unknown-field refusal. */
function refuseInlineDefinition(body: unknown): void {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, 'definition')) return;
  throw new ApiError(
    'bad_request',
    'definition is not taken over HTTP: start an agent a worker registered by its name, with "agent".',
  );
}

/**
 * Approval policies a body may set: `always` only. A run's starter may add approvals but never
 * loosen a tool's own policy (`never`, or rules narrower than the tool's `always`): that would
 * let them skip the people the tool names as approvers. Loosening is done in the tool's
 * definition, on the worker.
 */
function refuseLoosenedApprovals(body: unknown): void {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, 'approvals')) return;
  const approvals = (body as { approvals: unknown }).approvals;
  if (typeof approvals !== 'object' || approvals === null) return;
  const loosened = Object.entries(approvals).filter(([, policy]) => policy !== 'always');
  if (loosened.length === 0) return;
  throw new ApiError(
    'bad_request',
    `Through the API, approvals can only be required ("always"), never relaxed: ${loosened.map(([tool]) => tool).join(', ')}. A tool's own policy is changed in its definition on the worker.`,
    loosened.map(([tool]) => ({ path: ['approvals', tool], message: 'only "always" may be set through the API' })),
  );
}

/** Fields that decide what each view shows of a run: set only by people who may read the developer's view. */
const VISIBILITY_FIELDS = ['visibility', 'visibilityByToolType', 'visibilityByTool'] as const;

export const startRun = defineRoute({
  method: 'POST',
  url: '/v1/runs',
  operationId: 'startRun',
  summary:
    'Start a run; the caller is the authenticated identity. With an Idempotency-Key, at most one run per key and caller: a retry answers 200 with the first run (its body ignored)',
  headers: StartRunHeaders,
  body: StartRunBody,
  response: {
    status: 201,
    description: 'The run started',
    schema: StartRunResponse,
    alsoAnswers: { status: 200, description: 'This Idempotency-Key had started the run already: nothing new started' },
  },
  errors: [400, 401, 403, 409, 413, 503],
  precheck: (raw) => {
    refuseServerSet(raw);
    refuseInlineDefinition(raw);
    refuseLoosenedApprovals(raw);
    const problem = protoKeyProblem(raw);
    if (problem !== undefined) throw new ApiError('bad_request', problem);
  },
  async handle({ ctx, identity, body, headers, request, reply }) {
    const raw = request.body as Record<string, unknown>;
    const visibility = VISIBILITY_FIELDS.filter((field) => Object.hasOwn(raw, field));
    if (visibility.length > 0 && !allowedViews(identity.roles, ctx.policy?.policy).includes('developer')) {
      throw new ApiError(
        'forbidden',
        `Setting ${visibility.join(', ')} changes what end users see of a tool; it needs the developer or operator role.`,
      );
    }
    const caller = { id: identity.id, roles: identity.roles, ...(identity.tenant ? { tenant: identity.tenant } : {}) };
    const signed = signedDecisionKeys(ctx);
    const input: AgentInputInit = { ...(body as AgentInputInit), caller, ...signed };
    const key = headers['Idempotency-Key'];
    const start =
      key === undefined
        ? ctx.agents.start(input).then((handle) => ({ runId: handle.workflowId, duplicate: false }))
        : startIdempotently(ctx.agents, identity, input, key);
    const { runId, duplicate } = await start.catch((err: unknown) => {
      // A body naming an agent and setting its prompt or tools: the caller's mistake, said as such.
      if (err instanceof AgentInputConflictError) throw new ApiError('bad_request', err.message);
      throw err;
    });
    const self = runPath(runId);
    const links = { self, chain: `${self}/chain`, events: `${self}/events` };
    // Without a key the answer is as it always was; with one it says whether this request started the run.
    const answer = { runId, links, ...(key !== undefined ? { duplicate } : {}) };
    return duplicate ? reply.status(200).send(answer) : answer;
  },
});

export const listRunsRoute = defineRoute({
  method: 'GET',
  url: '/v1/runs',
  operationId: 'listRuns',
  summary:
    "List the caller's tenant's runs through Temporal visibility, newest first; sorted by another column (or oldest first), from the chain store",
  query: ListRunsQuery,
  response: { status: 200, description: 'One page of runs', schema: ListRunsResponse },
  errors: [400, 401, 503],
  handle: ({ ctx, identity, query }) => {
    const view = ctx.viewFor(identity, query.view);
    refuseSpendFilter(query, view);
    return wantsStoreOrder(query)
      ? listStoredRuns(ctx.store, identity, query, view)
      : listRuns(ctx.agents, identity, query, view);
  },
});

/** The status record for the API: the run's state (its ending's, once ended) with what the status query says, in a view. */
function statusRecord(facts: RunFacts, status: AgentStatus, ending: RunEnding | undefined) {
  return {
    runId: facts.workflowId,
    status: ending?.state ?? facts.state,
    ...(ending ? { ending } : {}),
    agentName: facts.agentName,
    ...(facts.origin ? { origin: facts.origin } : {}),
    ...(facts.experiment ? { experiment: facts.experiment } : {}),
    chainStatus: status.status,
    stepCount: status.steps,
    iterations: status.iteration,
    usage: status.usage,
    costUsd: status.costUsd,
    pendingApprovals: status.pendingApprovals,
    subAgents: status.subAgents,
    progress: {
      line: `step ${status.steps} · iteration ${status.iteration}/${status.maxIterations} · $${status.costUsd.toFixed(2)}`,
      iteration: status.iteration,
      maxIterations: status.maxIterations,
      model: status.model,
      continuations: status.continuations,
      ...pick(status, [
        'lastStep',
        'waitingFor',
        'cancelRequested',
        'steeringQueued',
        'openQuestion',
        'plan',
        'budgetPause',
        'tokenBudget',
        'costBudgetUsd',
        'times',
      ]),
    },
  };
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

export const getRun = defineRoute({
  method: 'GET',
  url: '/v1/runs/:id',
  operationId: 'getRun',
  summary:
    "A run's state, progress and pending approvals and, once it ended, its ending (termination reason, answer or error, grounding), in the caller's view (default: the widest their roles allow)",
  params: RunIdParams,
  query: RunQuery,
  response: { status: 200, description: 'The run', schema: RunStatusResponse },
  errors: [400, 401, 403, 404, 503],
  async handle({ ctx, identity, params, query }) {
    const view = ctx.viewFor(identity, query.view);
    const facts = await ctx.accessRun(identity, params.id);
    const lens = await ctx.lensFor?.(identity, view, facts, { details: query.details });
    const shown = subChainShown(lens, facts);
    const [raw, read] = await Promise.all([
      liveRead(() => ctx.agents.status(params.id, view), ctx.queryTimeoutMs),
      liveRead(() => readEnding(ctx.agents, params.id, facts.state), ctx.queryTimeoutMs),
    ]);
    const status = statusInLens(raw, view, lens);
    const ending = read ? endingInView(read, view, lens, shown === 'summary').ending : undefined;
    // A sub-agent shown as its summary: its state and counts, no step, question or approval.
    if (shown === 'summary') {
      const { lastStep: _step, openQuestion: _question, plan: _plan, budgetPause: _pause, ...rest } = status;
      return statusRecord(facts, { ...rest, pendingApprovals: [] }, ending);
    }
    return statusRecord(facts, status, ending);
  },
});

export const getChain = defineRoute({
  method: 'GET',
  url: '/v1/runs/:id/chain',
  operationId: 'getChain',
  summary:
    "A page of the run's reasoning chain: steps after `afterStep`, at most `limit`, in the caller's view, narrowed by the step filters; from the chain store when it has the run, else from Temporal",
  params: RunIdParams,
  query: ChainQuery,
  response: { status: 200, description: 'The chain with one page of steps', schema: ChainResponse },
  errors: [400, 401, 403, 404, 503],
  async handle({ ctx, identity, params, query }) {
    const view = ctx.viewFor(identity, query.view);
    const { types, tool, from, to, text } = query;
    const filter = { types, tool, from, to, text };
    const request = { afterStep: query.afterStep, limit: query.limit, filter };
    const stored = await readFromStore(ctx, identity, params.id, view, query.source, request);
    const target = stored.page ? storedTarget(stored.page.run) : await ctx.accessRun(identity, params.id);
    const lens = await ctx.lensFor?.(identity, view, target, { details: query.details });
    if (!lens && stored.page) {
      const { chain, totalSteps, nextAfterStep } = stored.page;
      return { chain, totalSteps, ...(nextAfterStep !== undefined ? { nextAfterStep } : {}), ...stored.source };
    }
    // With a lens the whole chain is narrowed before it is filtered and paged: a filter never
    // counts, and a page never holds, a step the policy or the preference leaves out.
    const shown = subChainShown(lens, target);
    const whole = chainInLens(await wholeChainAfterStore(ctx, params.id, view, stored), view, lens);
    const progress = progressFor(whole, lens, shown);
    const page = shown === 'summary' ? { chain: withoutSteps(whole), totalSteps: 0 } : pageOfChain(whole, request);
    return { ...page, ...(progress ? { progressSummary: progress } : {}), ...stored.source };
  },
});

export const getModelCalls = defineRoute({
  method: 'GET',
  url: '/v1/runs/:id/model-calls',
  operationId: 'getModelCalls',
  summary:
    "Every model call of the run exactly as sent and answered (system prompt, messages, tools, reply), rebuilt from its history; the auditor's view only",
  params: RunIdParams,
  response: { status: 200, description: 'The model calls, oldest first, secrets redacted', schema: ModelCallsResponse },
  errors: [400, 401, 403, 404, 503],
  async handle({ ctx, identity, params }) {
    // Whole prompts hold what other views redact: only a caller whose roles allow the auditor's view.
    ctx.viewFor(identity, 'auditor');
    const access = await ctx.accessRun(identity, params.id);
    // The policy binds the auditor too (its security layer above all): calls are read in the auditor's lens.
    const lens = await ctx.lensFor?.(identity, 'auditor', access);
    const shown = subChainShown(lens, access);
    const chain = await liveRead(() => ctx.agents.chain(params.id, 'auditor'), ctx.queryTimeoutMs);
    const gone = chain.unavailable;
    const runIds = await runIdsOf(ctx.agents.client, params.id);
    let calls;
    try {
      calls = await modelCallsOfRun(ctx.agents.client, params.id, runIds, chain.steps, gone);
    } catch (err) {
      if (err instanceof ModelCallHistoryError)
        throw new ApiError('unavailable', gone ? modelCallsGoneNote(gone, { failure: err.message }) : err.message);
      throw err;
    }
    const inLens = modelCallsInLens(shown === 'summary' ? [] : calls, chain, lens);
    const notes = [
      ...(gone ? [modelCallsGoneNote(gone, { calls })] : []),
      ...(shown === 'summary' && calls.length > 0 ? [SUB_CHAIN_SUMMARY_NOTE] : []),
      ...(inLens.leftOut > 0 ? [modelCallsLeftOutNote(inLens.leftOut)] : []),
    ];
    return {
      modelCalls: inLens.calls.map((call) => redactSecrets(call)),
      ...(notes.length > 0 ? { modelCallsUnavailable: notes.join(' ') } : {}),
    };
  },
});

export const RUNS_ROUTES: readonly ApiRoute[] = [startRun, listRunsRoute, getRun, getChain, getModelCalls];
