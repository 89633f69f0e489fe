import { RunOrigin } from '../domain/run/run-origin';
import { AuditModelCall } from '../audit';
import { z } from 'zod';
import {
  AgentInput,
  ApprovalRecord,
  ChainStatus,
  PlanProgress,
  ReasoningChain,
  SubAgentRun,
  TokenUsage,
  ViewerRole,
} from '../domain';
import {
  BudgetPause,
  MAX_RAISE_ITERATIONS,
  MAX_RAISE_TEXT_CHARS,
  MAX_RAISE_TOKENS,
  MAX_RAISE_USD,
} from '../domain/run/budget-pause';
import { RunEnding } from '../domain/run/run-ending';
import { ChainSource, RUN_SORT_KEYS } from '../domain/store';
import { TerminationReason } from '../domain/run/termination';
import { ModelTimes } from '../domain/chain/model-times';
import { DetailsQuery, ReadSource, StepFilterQuery } from './routes/store-schemas';

/** Temporal's limit on a workflow id; longer ids cannot name a run. */
export const RunIdParams = z.object({ id: z.string().min(1).max(1000) });

/** Fields only the server (the caller) or the run itself (delegation, continuing) sets; a fork's start is built by AgentClient.fork from the original's history, never taken from a body. */
export const SERVER_SET_FIELDS = ['caller', 'delegation', 'continued', 'signedDecisions', 'fork'] as const;

/**
 * The run input a client sends: AgentInput without the server-set fields, nor an inline agent
 * `definition` (a body could then claim any agent id and version: over HTTP an agent is started by
 * name, `agent`, from what the workers registered); unknown fields are refused.
 */
export const StartRunBody = AgentInput.omit({
  caller: true,
  delegation: true,
  continued: true,
  signedDecisions: true,
  fork: true,
  definition: true,
  // The run describes its guardrails itself (`guardrails` names them).
  guardrailSpecs: true,
}).strict();

export const RunLinks = z.object({ self: z.string(), chain: z.string(), events: z.string() });
export const StartRunResponse = z.object({
  runId: z.string(),
  links: RunLinks,
  /** With an Idempotency-Key only: true when the key had started the run already (nothing new started). */
  duplicate: z.boolean().optional(),
});

/**
 * A start's idempotency key (the IETF draft's header): what a client retries with when it cannot
 * tell whether its start arrived. Characters a header carries as they are, so it is never decoded.
 */
export const IdempotencyKey = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, "1 to 128 letters, digits, '.', '_', ':' or '-'")
  .describe(
    "The same key starts the run once, for you: a retry answers 200 with the first start's run and duplicate: true, whatever its body",
  );

export const StartRunHeaders = z.object({ 'Idempotency-Key': IdempotencyKey.optional() });

/**
 * A run's state: Temporal's, except that a run that ended with `failure` or `error` is `failed`
 * and one that ended `cancelled` is `cancelled` (its ending's state, `runEnding`).
 */
export const RunState = z.enum(['running', 'completed', 'failed', 'cancelled', 'terminated', 'timed_out', 'continued']);

/** What a list shows of an ending: no answer and no error, so a page of runs stays small. */
export const RunEndingSummary = RunEnding.pick({
  state: true,
  terminationReason: true,
  label: true,
  tone: true,
  summary: true,
});

/** A name filter as visibility queries take it: letters, digits, space and `._:/@-`, never a quote. */
const SafeName = z
  .string()
  .regex(/^[\p{L}\p{N} ._:/@-]{1,200}$/u, 'letters, digits, spaces and ._:/@- only, at most 200');
const Instant = z.iso.datetime({ offset: true }).transform((text) => new Date(text).toISOString());

export const ListRunsQuery = z
  .object({
    /** The ending's state: `failed` finds runs that ended with failure or error too. */
    status: RunState.optional(),
    /** Runs that ended for this reason (the `ThoughtlineStatus` their last upsert left). */
    reason: TerminationReason.optional(),
    agent: SafeName.optional(),
    /** Runs of this agent definition version (`ThoughtlineAgentVersion`). */
    agentVersion: SafeName.optional(),
    /** Runs of this live experiment (`ThoughtlineExperiment`), of one variant with `variant` (`ThoughtlineVariant`). */
    experiment: SafeName.optional(),
    variant: SafeName.optional(),
    tenant: SafeName.optional(),
    /** Runs that ended with this model answering their last model call (`ThoughtlineModel` at the ending). */
    model: SafeName.optional(),
    /** Runs a schedule started, or runs of any live experiment; a webhook's runs are not searchable by origin. */
    origin: z.enum(['schedule', 'experiment']).optional(),
    /** Runs that used at least this many iterations. */
    minIterations: z.coerce.number().int().min(0).max(1_000_000).optional(),
    /** Runs that cost at least this much; refused in the end user's view, which shows no spend. */
    minCostUsd: z.coerce.number().min(0).max(1_000_000).optional(),
    startedAfter: Instant.optional(),
    startedBefore: Instant.optional(),
    /**
     * The column the page is sorted by (default the start); any order but newest start first reads
     * the chain store (visibility orders by start only), 400 without one.
     */
    sort: z.enum(RUN_SORT_KEYS).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
    pageToken: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,4096}$/, 'the nextPageToken of the previous page')
      .optional(),
    /** The view the rows are read in (default: the widest the caller's roles allow); the end user's has no tokens or cost. */
    view: z.string().optional(),
  })
  .strict();

/** The live experiment and variant a run was assigned, once it recorded them (docs/evaluation.md). */
const RunExperiment = z.object({ name: z.string(), variant: z.string() });

export const RunSummary = z.object({
  runId: z.string(),
  agentName: z.string(),
  /** The agent definition's version, once the run recorded it; absent for a run without a definition. */
  agentVersion: z.string().optional(),
  experiment: RunExperiment.optional(),
  status: RunState,
  /** How it ended, from visibility alone (no result read): absent while it runs. */
  ending: RunEndingSummary.optional(),
  task: z.string(),
  tenant: z.string().optional(),
  /** What started it when no person did directly: a schedule or a webhook delivery. */
  origin: RunOrigin.optional(),
  startedAt: z.string(),
  closedAt: z.string().optional(),
  /** From start to close; absent while it runs. */
  durationMs: z.number().nonnegative().optional(),
  /** Iterations, tokens and cost as the run's last upsert recorded them: final once it ended. Tokens and cost: not in the end user's view. */
  iterations: z.number().int().nonnegative().optional(),
  tokens: z.number().nonnegative().optional(),
  costUsd: z.number().nonnegative().optional(),
  /** The model that answered the run's last model call, from the upsert that recorded its ending; absent before it. */
  model: z.string().optional(),
});
export const ListRunsResponse = z.object({ runs: z.array(RunSummary), nextPageToken: z.string().optional() });

export const RunProgress = z.object({
  /** "step 7 · iteration 3/10 · $0.04", for a one-line display. */
  line: z.string(),
  iteration: z.number().int().nonnegative(),
  /** 0 while the run has not answered yet. */
  maxIterations: z.number().int().nonnegative(),
  model: z.string(),
  lastStep: z.string().optional(),
  waitingFor: z.string().optional(),
  cancelRequested: z.string().optional(),
  steeringQueued: z.number().int().nonnegative().optional(),
  openQuestion: z
    .object({ callId: z.string(), question: z.string(), askedAt: z.string(), expiresAt: z.string() })
    .optional(),
  plan: PlanProgress.optional(),
  /** The budget the run paused at (`onBudget: 'ask'`): what it spent, and on what; raise it with POST /v1/runs/{id}/budget. */
  budgetPause: BudgetPause.optional(),
  tokenBudget: z.number().optional(),
  costBudgetUsd: z.number().optional(),
  continuations: z.number().int().nonnegative(),
  /** Planning and reasoning time so far (AgentStatus.times); absent from runs that kept none. */
  times: ModelTimes.optional(),
});

export const RunStatusResponse = z.object({
  runId: z.string(),
  status: RunState,
  /** How the run ended, in the caller's view (the answer or the error, the grounding): absent while it runs. */
  ending: RunEnding.optional(),
  agentName: z.string(),
  /** What started the run when no person did directly: a schedule, or a webhook delivery. */
  origin: RunOrigin.optional(),
  experiment: RunExperiment.optional(),
  chainStatus: ChainStatus,
  stepCount: z.number().int().nonnegative(),
  iterations: z.number().int().nonnegative(),
  usage: TokenUsage,
  costUsd: z.number().nonnegative(),
  pendingApprovals: z.array(ApprovalRecord),
  subAgents: z.array(SubAgentRun),
  progress: RunProgress,
});

const ViewQuery = z.string().optional();
export const RunQuery = z.object({ view: ViewQuery, details: DetailsQuery }).strict();
export const ChainQuery = z
  .object({
    view: ViewQuery,
    afterStep: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    ...StepFilterQuery,
    source: ReadSource,
    details: DetailsQuery,
  })
  .strict();
export const ModelCallsResponse = z.object({
  /** Every model call exactly as sent and answered, rebuilt from the run's history. */
  modelCalls: z.array(AuditModelCall),
  /** Why some calls are missing: the run's first steps are gone from the server, and the calls made with them. */
  modelCallsUnavailable: z.string().optional(),
});

export const ChainResponse = z
  .object({
    chain: ReasoningChain,
    nextAfterStep: z.number().int().optional(),
    totalSteps: z.number().int().nonnegative(),
    /** The run's progress lines, first: when the caller chose summaries only, or a sub-agent is shown as its summary. */
    progressSummary: z.object({ lines: z.array(z.string()), text: z.string() }).optional(),
  })
  .extend(ChainSource.shape);

export const ApprovalParams = RunIdParams.extend({ callId: z.string().min(1).max(200) });
export const ApprovalBody = z
  .object({
    approved: z.boolean(),
    argumentsHash: z.string().min(1).max(200),
    reason: z.string().max(4_000).optional(),
    /** For a call whose outcome is unknown (a lost `once` attempt), with `approved: true`: it took effect, do not run it again. */
    markDone: z.boolean().optional(),
    /** With `markDone`: the call's result as the person knows it. */
    result: z.string().max(4_000).optional(),
  })
  .strict()
  .refine((body) => body.approved || (body.reason ?? '').trim() !== '', {
    path: ['reason'],
    message: 'a reason is required when rejecting: the agent reads it to decide what to do instead',
  })
  .refine((body) => body.result === undefined || body.markDone === true, {
    path: ['result'],
    message: 'a result goes with markDone: true only',
  })
  .refine((body) => !body.markDone || body.approved, {
    path: ['markDone'],
    message: 'markDone goes with approved: true (the call took effect)',
  });

/** Steering and answers are read by the model: bounded well under a payload's limit. */
const PersonText = z.string().trim().min(1).max(32_000);
export const CancelBody = z.object({ reason: z.string().max(4_000).optional() }).strict();
export const SteerBody = z.object({ text: PersonText }).strict();
export const AnswerBody = z.object({ text: PersonText, callId: z.string().min(1).max(200).optional() }).strict();
/** A raise of a paused budget (`onBudget: 'ask'`): amounts within one raise's limits, or a stop; the run checks the rest. */
export const RaiseBudgetBody = z
  .object({
    tokens: z.number().int().positive().max(MAX_RAISE_TOKENS).optional(),
    costUsd: z.number().positive().max(MAX_RAISE_USD).optional(),
    iterations: z.number().int().positive().max(MAX_RAISE_ITERATIONS).optional(),
    stop: z.boolean().optional(),
    note: z.string().max(MAX_RAISE_TEXT_CHARS).optional(),
  })
  .strict()
  .refine((b) => (b.stop === true) !== [b.tokens, b.costUsd, b.iterations].some((a) => a !== undefined), {
    message: 'give tokens, costUsd or iterations to raise, or stop: true alone',
  });
export const RaiseBudgetResponse = z.object({ outcome: z.string(), pause: BudgetPause });
export const AcceptedResponse = z.object({ accepted: z.literal(true) });
export const AnswerResponse = z.object({ answer: z.string() });

export const MeResponse = z.object({
  id: z.string(),
  roles: z.array(z.string()),
  tenant: z.string().optional(),
  views: z.array(ViewerRole),
  /** Absent when a visibility policy grants the caller's roles no view. */
  defaultView: ViewerRole.optional(),
});
export const HealthResponse = z.object({ ok: z.literal(true) });
