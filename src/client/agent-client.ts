import { randomUUID } from 'node:crypto';
import { isImportRunId } from '../domain/store/import-run-id';
import { ReservedRunIdError } from './errors/reserved-run-id-error';
import { forkRun, forksOf, planForkOf, type ForkOptions } from './fork/fork-run';
import type { PlannedFork } from './fork/plan-fork';
import { Client, WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { connectClient, endpointOf, loadConnectionSettings, type ConnectionOverrides } from '../connection';
import {
  AgentInput,
  DEFAULT_TASK_QUEUE,
  AgentAttribute,
  TenantAttribute,
  type AgentInputInit,
  type AgentResult,
  type AgentStatus,
  type ApprovalRecord,
  type ReasoningChain,
  type ReasoningStep,
  type ViewerRole,
} from '../domain';
import { chainPage, type ChainPage } from '../domain/chain/chain-page';
import { viewChain, viewStatus } from '../domain/chain/chain-view';
import { protoKeyProblem } from '../domain/text/own-value';
import type { agentWorkflow } from '../workflows';
import {
  answerUpdate,
  approveToolCallUpdate,
  chainQuery,
  raiseBudgetUpdate,
  statusQuery,
  steerSignal,
} from '../workflows/messages';
import type { BudgetRaise } from '../domain/run/budget-pause';
import { actorId, toPerson, type Actor } from './decisions/actor';
import type { DecisionSending } from './decisions/sign-decision';
import { eagerStartOption } from './start/eager-start';
import { namedAgentInput } from './start/named-agent-input';
import { redactContext } from './start/redact-context';
import { runsOfAgent, type AgentRunListing } from './runs/runs-of-agent';
import { experimentReport, type ExperimentReportOptions } from './runs/experiment-runs';
import type { ExperimentReport } from '../domain/evaluation/experiment-report';
import { joinedChain } from './chain/joined-chain';
import { unlessRunGone } from './errors/run-gone';
import { readChainArchive } from './chain/read-chain-archive';
import { restoreObservations } from './chain/restore-observations';
import { loadAgentTree, type AgentTreeNode } from './chain/agent-tree';
import { loadExpandedChain, type ExpandedChain } from './chain/expanded-chain';
import { pushFollow, type PushServer } from './follow/push-follow';
import { LiveReplyReader, type LiveDelta } from './chain/live-replies';
import { LiveProgressReader } from './chain/live-progress';
import type { LiveToolProgress } from './follow/push-follow';
import { statusFromResult } from './runs/status-from-result';
import { routeApproval } from './decisions/route-approval';
import { sendUpdate, UpdateRefusedError } from './errors/update-refused-error';
import { retryUnknownSearchAttribute, type StartRetry } from './start/retry-unknown-search-attribute';
import { agentStartOptions } from './start/agent-start-options';
import type { RunOrigin } from '../domain/run/run-origin';
import { addRunScore, readRunScores, type ScoreInit } from './runs/run-scores';
import { forgetAgentMemory, readAgentMemory, type ForgetMemoryInit, type MemoryOwner } from './agent-memory';
import type { ForgetMemoryResult, MemoryEntry } from '../domain/planning/agent-memory';
import type { ChainStore } from '../store/chain-store';
import { readStoredPage } from './store/read-stored-chain';
import type { LoadedPolicy } from '../governance/load-visibility-policy';
import type { ViewLens } from '../domain/visibility/view-lens';
import { identityOfChain, lensOfPolicy, type LensOfRun } from './runs/run-lens';
import type { AddRunScoreResult, RunScore } from '../domain/evaluation/run-scores';

export type AgentHandle = WorkflowHandle<typeof agentWorkflow>;

export interface AgentClientOptions {
  client: Client;
  taskQueue?: string;
  /** A `thoughtline serve` instance: `follow` then uses its push stream instead of polling. */
  server?: PushServer;
  /** Told each time `start` tries again because the server does not know a search attribute yet. */
  onStartRetry?: (retry: StartRetry) => void;
  /**
   * The chain store: `chain()` answers from it when it has the run and is not behind, else (or
   * when it fails) from Temporal as without it.
   */
  store?: ChainStore;
  /**
   * The organisation's visibility policy (`visibilityPolicyFromEnv`): every view this client reads
   * (chain, status, follow and watch, archives, the store) is narrowed by it for the run's agent
   * and tenant and this deployment. Absent: the built-in role views.
   */
  visibilityPolicy?: LoadedPolicy;
}

/** What a watcher sees: whole steps as they land, and (optionally) model replies as they stream. */
export type WatchEvent =
  | { type: 'step'; step: ReasoningStep }
  | ({ type: 'live' } & LiveDelta)
  /** A running tool's progress: followed through `serve` only (`pushFollow`). */
  | ({ type: 'progress' } & LiveToolProgress);

export interface FollowOptions {
  pollMs?: number;
  /** Also yield streaming model output, read from the model calls' heartbeats. Default true. */
  live?: boolean;
}

/** An approval or rejection of a pending call; see `AgentClient.decide`. */
export interface Decision {
  callId: string;
  approved: boolean;
  by: Actor;
  /** Required when rejecting. */
  reason?: string;
  argumentsHash?: string;
  /** For a call whose outcome is unknown (a lost `once` attempt), with `approved: true`: it took effect; do not run it again. */
  markDone?: boolean;
  /** With `markDone`: the call's result as the person knows it. */
  result?: string;
}

export interface StartOptions {
  /** Default `agent-<uuid>`. Reusing the id of a running agent fails. */
  workflowId?: string;
  /** What started the run when no person did directly (a webhook delivery); kept in its memo. */
  origin?: RunOrigin;
  /** Refuse the id also when a closed run used it (WorkflowExecutionAlreadyStartedError): an idempotent start. */
  once?: boolean;
}

/** Starts agents and reads their chains. Wraps a Temporal Client; holds no other state. */
export class AgentClient {
  readonly client: Client;
  readonly taskQueue: string;
  readonly server: PushServer | undefined;
  private readonly onStartRetry: ((retry: StartRetry) => void) | undefined;
  readonly store: ChainStore | undefined;
  /** The visibility policy's lens for a run and a role (undefined without a policy). */
  readonly lensOf: LensOfRun;
  private readonly hasPolicy: boolean;

  constructor(options: AgentClientOptions) {
    this.lensOf = lensOfPolicy(options.visibilityPolicy);
    this.hasPolicy = options.visibilityPolicy !== undefined;
    this.client = options.client;
    this.taskQueue = options.taskQueue ?? DEFAULT_TASK_QUEUE;
    this.server = options.server;
    this.onStartRetry = options.onStartRetry;
    this.store = options.store;
  }

  /**
   * Connects with Temporal's standard environment configuration: the TEMPORAL_* variables
   * (address, namespace, TLS, client certificates, API key) and the temporal.toml profile they
   * select, each overridden by the same option given here (docs/operations.md, "Connecting to a
   * secured cluster or Temporal Cloud"). With no address anywhere, the local dev server at
   * 127.0.0.1:7233. A bad setting throws TemporalConfigError; a refused connection
   * TemporalConnectionError, saying which variable to set.
   * `dataConverter`: e.g. `createDataConverter(keys)` when payloads are encrypted; workers must use the same keys.
   */
  static async connect(
    options: ConnectionOverrides & {
      taskQueue?: string;
      dataConverter?: DataConverter;
      server?: PushServer;
      onStartRetry?: (retry: StartRetry) => void;
      store?: ChainStore;
      visibilityPolicy?: LoadedPolicy;
    } = {},
  ): Promise<AgentClient> {
    const { taskQueue, dataConverter, server, onStartRetry, store, visibilityPolicy, ...overrides } = options;
    const settings = loadConnectionSettings(overrides);
    const client = new Client({
      connection: await connectClient(endpointOf(settings)),
      namespace: settings.namespace,
      ...(dataConverter ? { dataConverter } : {}),
    });
    return new AgentClient({
      client,
      ...(taskQueue ? { taskQueue } : {}),
      ...(server ? { server } : {}),
      ...(onStartRetry ? { onStartRetry } : {}),
      ...(store ? { store } : {}),
      ...(visibilityPolicy ? { visibilityPolicy } : {}),
    });
  }

  /**
   * The input a run of `init` starts with, as `start` sends it (named after its agent, secrets in
   * its context redacted, validated): a Schedule's action is built from the same.
   */
  prepare(init: AgentInputInit): AgentInput {
    const protoKey = protoKeyProblem(init);
    if (protoKey !== undefined) throw new TypeError(protoKey);
    // Secrets in the context go before validation, so the bounds apply to what is sent.
    return AgentInput.parse(namedAgentInput(redactContext(init)));
  }

  /**
   * Validates the input here, so a bad field fails at the caller rather than in a workflow task.
   * A start the server refuses for a search attribute it does not know yet is tried again for up
   * to about 16 s (see retryUnknownSearchAttribute); other refusals throw at once. An id in the
   * imports' space (`import:…`) is refused with ReservedRunIdError before anything starts.
   */
  async start(init: AgentInputInit, options: StartOptions = {}): Promise<AgentHandle> {
    const input = this.prepare(init);
    const workflowId = options.workflowId ?? `agent-${randomUUID()}`;
    if (isImportRunId(workflowId)) throw new ReservedRunIdError(workflowId);
    return retryUnknownSearchAttribute(() => this.startWorkflow(input, workflowId, options), {
      ...(this.onStartRetry ? { onRetry: this.onStartRetry } : {}),
    });
  }

  private startWorkflow(input: AgentInput, workflowId: string, options: StartOptions): Promise<AgentHandle> {
    return this.client.workflow.start<typeof agentWorkflow>('agentWorkflow', {
      taskQueue: this.taskQueue,
      workflowId,
      ...agentStartOptions(input, options.origin),
      ...eagerStartOption(this.client),
      // An idempotent start (a webhook delivery): an id used before, even by a closed run, is refused.
      ...(options.once ? { workflowIdReusePolicy: 'REJECT_DUPLICATE' as const } : {}),
    });
  }

  /**
   * What a fork of `workflowId` at `options.atStep` would start from (the steps it keeps, the
   * conversation, the ledger) and its side-effect hazards: calls after that point it may make
   * again. Starts nothing; the original is only read.
   */
  planFork(workflowId: string, options: ForkOptions): Promise<PlannedFork> {
    return planForkOf(this, workflowId, options);
  }

  /**
   * A new run that starts from `workflowId`'s conversation and ledger at `options.atStep`, with
   * the change applied (model, tools, an instruction), linked both ways: its chain's `forkedFrom`,
   * and `forks(original)`. Read `planned.start.hazards` for what it may do again.
   */
  fork(workflowId: string, options: ForkOptions): Promise<{ handle: AgentHandle; planned: PlannedFork }> {
    return forkRun(this, workflowId, options);
  }

  /** The runs forked from `workflowId`, newest first. */
  forks(workflowId: string): Promise<Array<{ workflowId: string; startTime: Date; status: string }>> {
    return forksOf(this, workflowId);
  }

  /** Runs of one agent, of one version when `options.version` is given, newest first (see runsOfAgent). */
  runsOfAgent(agent: string, options: { version?: string; limit?: number } = {}): Promise<AgentRunListing[]> {
    return runsOfAgent(this.client, agent, options);
  }

  /** A live experiment's runs per variant: success, cost, tokens, latency and late scores, with 95% intervals (see experimentReport). */
  experimentReport(experiment: string, options: ExperimentReportOptions = {}): Promise<ExperimentReport> {
    return experimentReport(this.client, experiment, options);
  }

  getHandle(workflowId: string): AgentHandle {
    return this.client.workflow.getHandle<typeof agentWorkflow>(workflowId);
  }

  /**
   * The run's result, waiting for it if need be, with every observation its chain names instead of
   * repeating put back from the run's history (see restoreObservations). `getHandle(id).result()`
   * gives the result as recorded, long observations cut to their first 1,000 characters.
   */
  async result(workflowId: string): Promise<AgentResult> {
    return this.restored(workflowId, await this.getHandle(workflowId).result());
  }

  /** `result` with the named observations of `page` (default: all) put back. */
  private async restored(workflowId: string, result: AgentResult, page?: ChainPage): Promise<AgentResult> {
    const chain = await restoreObservations(this.client, workflowId, result.chain, page);
    return chain === result.chain ? result : { ...result, chain };
  }

  /**
   * The reasoning chain in a role's view (default `developer`), or a page of it (steps after
   * `afterStep`, at most `limit`): from the result once the run has completed, else from the live
   * `chain` query. A long run's earlier steps are read from each handover's archive (one event
   * each, no worker); a page of recent steps needs no such read. Runs recorded before archives are
   * read by querying their closed Temporal runs, which a worker answers. Steps whose Temporal run
   * is gone from the server (past the namespace's retention) are left out, and `unavailable` says
   * which.
   */
  async chain(workflowId: string, role: ViewerRole = 'developer', page?: ChainPage): Promise<ReasoningChain> {
    if (this.store) {
      // The store is a copy: when it cannot answer, Temporal does.
      const request = this.hasPolicy ? { ...page, lens: this.lensOf } : page;
      const stored = await readStoredPage(this.store, workflowId, role, request).catch(() => undefined);
      if (stored) return stored.chain;
    }
    const handle = this.getHandle(workflowId);
    const description = await handle.describe();
    if (description.status.name === 'COMPLETED') {
      const { chain } = await this.restored(workflowId, await handle.result(), page);
      const lens = this.lensOf(identityOfChain(chain), role);
      return this.withEarlierSteps(workflowId, chainPage(viewChain(chain, role, lens), page), role, page, lens);
    }
    const lens = await this.liveLens(handle, description, role);
    const latest = lens ? await handle.query(chainQuery, role, page, lens) : await handle.query(chainQuery, role, page);
    return this.withEarlierSteps(workflowId, latest, role, page, lens);
  }

  /**
   * The policy's lens for a running run: its agent and tenant from its search attributes, else
   * (a run started without them) from its chain's head, read with the lens that needs neither.
   */
  private async liveLens(
    handle: AgentHandle,
    description: Awaited<ReturnType<AgentHandle['describe']>>,
    role: ViewerRole,
  ): Promise<ViewLens | undefined> {
    if (!this.hasPolicy) return undefined;
    const agentName = description.typedSearchAttributes.get(AgentAttribute);
    const tenant = description.typedSearchAttributes.get(TenantAttribute);
    if (agentName !== undefined) return this.lensOf({ agentName, ...(tenant !== undefined ? { tenant } : {}) }, role);
    const head = await handle.query(chainQuery, role, { afterStep: Number.MAX_SAFE_INTEGER }, this.lensOf({}, role));
    return this.lensOf(identityOfChain(head), role);
  }

  /**
   * `latest`, a chain of the run's latest Temporal run in `role`'s view (a result's or a query's),
   * with the steps that earlier Temporal runs hold (see `earlier`), or the page of them asked for.
   */
  withEarlierSteps(
    workflowId: string,
    latest: ReasoningChain,
    role: ViewerRole,
    page?: ChainPage,
    lens?: ViewLens,
  ): Promise<ReasoningChain> {
    return joinedChain(
      latest,
      // A Temporal run gone from the server (retention) reads as undefined: joinedChain stops there.
      (runId, part) =>
        unlessRunGone(async () => {
          // The steps a handover left behind are in its continue-as-new event; older runs answer a query.
          const archive = await readChainArchive(this.client, workflowId, runId);
          if (!archive) {
            const older = this.client.workflow.getHandle(workflowId, runId);
            return lens ? older.query(chainQuery, role, part, lens) : older.query(chainQuery, role, part);
          }
          const { earlier: _latest, approvals: _approvals, view: _view, ...head } = latest;
          return {
            ...head,
            steps: viewChain({ ...head, steps: archive.steps }, role, lens).steps,
            ...(archive.earlier ? { earlier: archive.earlier } : {}),
          };
        }),
      page,
    );
  }

  /**
   * Calls waiting for a decision in the run's tree: its own, and its sub-agents' (those carry the
   * `workflowId` that waits). A run that has ended has none (and needs no worker to say so).
   */
  async pendingApprovals(workflowId: string, role: ViewerRole = 'developer'): Promise<ApprovalRecord[]> {
    const { status } = await this.getHandle(workflowId).describe();
    if (status.name !== 'RUNNING') return [];
    return (await this.status(workflowId, role)).pendingApprovals ?? [];
  }

  /**
   * Approves or rejects a pending call, in the run that waits: `workflowId` or the sub-agent whose
   * record its tree lists. Pass `argumentsHash` from the record the person was shown (the CLI
   * does), so the run refuses a decision on anything else; without it, the hash the pending record
   * names now is sent. The view may show the arguments with sensitive fields and secrets redacted,
   * so the hash is always the run's own. Refused (UpdateRefusedError), with nothing in
   * history, when the call id is pending in two runs of the tree, or by the run's validator for
   * unknown, decided or unauthorised decisions. `by` as for `steer` and `answer`: an id, or an id
   * with roles (an id alone holds no role).
   */
  async decide(workflowId: string, decision: Decision, sending: DecisionSending = {}): Promise<ApprovalRecord> {
    await this.refuseIfEnded(workflowId);
    const route = routeApproval(workflowId, await this.pendingApprovals(workflowId), {
      callId: decision.callId,
      verb: decision.approved ? 'approve' : 'reject',
    });
    if (route.kind === 'refuse') throw new UpdateRefusedError(route.message);
    if (route.workflowId !== workflowId) await this.refuseIfEnded(route.workflowId);
    const hash = decision.argumentsHash ?? route.record?.argumentsHash ?? 'unknown';
    const payload = { ...decision, by: toPerson(decision.by), argumentsHash: hash };
    // Signed for the run that waits: a sub-agent verifies its own workflow id.
    const sent = sending.sign ? sending.sign('approval', route.workflowId, payload) : payload;
    return sendUpdate(() => this.getHandle(route.workflowId).executeUpdate(approveToolCallUpdate, { args: [sent] }));
  }

  private async refuseIfEnded(workflowId: string): Promise<void> {
    const { status } = await this.getHandle(workflowId).describe();
    if (status.name !== 'RUNNING')
      throw new UpdateRefusedError(
        `${workflowId} has ended (${status.name.toLowerCase()}); no call awaits a decision.`,
      );
  }

  /**
   * The delegation tree under a run, from `status` (an ended run's is rebuilt from its result,
   * so no worker is needed for it). A child that cannot be read shows its error in its node.
   */
  tree(workflowId: string): Promise<AgentTreeNode> {
    return loadAgentTree(workflowId, {
      status: (id) => this.status(id),
      agentName: async (id) => (await this.chain(id, 'end_user')).agentName,
    });
  }

  /** A run's chain with its sub-agents' chains (recursively), each in the same role's view. */
  expandedChain(workflowId: string, role: ViewerRole = 'developer'): Promise<ExpandedChain> {
    return loadExpandedChain(
      workflowId,
      (id) => this.chain(id, role),
      (chain) => {
        const subChains = this.lensOf(identityOfChain(chain), role)?.subChains;
        return subChains === undefined || subChains === 'full';
      },
    );
  }

  /**
   * Adds a person's instruction before the agent's next thought; the chain names `by`'s id. A
   * signed one carries a fresh nonce: steering answers no pause, and the run accepts each
   * signature once.
   */
  steer(workflowId: string, text: string, by?: Actor, sending: DecisionSending = {}): Promise<void> {
    const id = by === undefined ? '' : actorId(by);
    const payload = { text, ...(id ? { by: id } : {}) };
    const sent = sending.sign ? sending.sign('steer', workflowId, { ...payload, nonce: randomUUID() }) : payload;
    return this.getHandle(workflowId).signal(steerSignal, sent);
  }

  /**
   * Answers the question the agent asked; refused when none is open. The chain names `by`'s id.
   * A signed answer names the question it answers (`callId`, else the one open now).
   */
  async answer(
    workflowId: string,
    text: string,
    by: Actor,
    sending: DecisionSending & { callId?: string } = {},
  ): Promise<string> {
    const callId = sending.callId ?? (sending.sign ? (await this.status(workflowId)).openQuestion?.callId : undefined);
    if (sending.sign && !callId) throw new UpdateRefusedError(`${workflowId} has no open question to answer.`);
    const payload = { text, by: actorId(by), ...(callId ? { callId } : {}) };
    const sent = sending.sign ? sending.sign('answer', workflowId, payload) : payload;
    return sendUpdate(() => this.getHandle(workflowId).executeUpdate(answerUpdate, { args: [sent] }));
  }

  /**
   * Raises the budget a run paused at (`onBudget: 'ask'`) by tokens, USD or iterations, or stops
   * it (`stop: true`). Refused (UpdateRefusedError, nothing in history) when the run is not
   * paused, the raise misses the budget it paused at, or `by` lacks a role `budgetRaiserRoles`
   * asks for (developer or operator when it names none), verified by a signature. `by` as for
   * `decide`: an id alone holds no role. A signed raise names the pause it answers (`pauseId`,
   * else the one open now), so it can answer no later pause.
   */
  async raiseBudget(
    workflowId: string,
    raise: Omit<BudgetRaise, 'by' | 'signature'> & { by: Actor },
    sending: DecisionSending = {},
  ): Promise<string> {
    const pauseId = raise.pauseId ?? (sending.sign ? (await this.status(workflowId)).budgetPause?.pauseId : undefined);
    if (sending.sign && !pauseId)
      throw new UpdateRefusedError(`${workflowId} is not paused at a budget; nothing to raise.`);
    const payload = { ...raise, by: toPerson(raise.by), ...(pauseId ? { pauseId } : {}) };
    const sent = sending.sign ? sending.sign('budget', workflowId, payload) : payload;
    return sendUpdate(() => this.getHandle(workflowId).executeUpdate(raiseBudgetUpdate, { args: [sent] }));
  }

  /**
   * Attaches an outcome score to a run, open or ended (days later too: the ticket was reopened,
   * the user accepted the answer). Stored with the run by its scores workflow; a second score of
   * the same name by the same person replaces the first (`replaced` in the answer). Throws
   * UnknownRunError when no agent run has this id, UpdateRefusedError past 200 scores a run.
   */
  score(workflowId: string, score: ScoreInit): Promise<AddRunScoreResult> {
    return addRunScore(this.client, workflowId, score, { taskQueue: this.taskQueue });
  }

  /** The run's scores, oldest first; none when it was never scored. */
  scores(workflowId: string): Promise<RunScore[]> {
    return readRunScores(this.client, workflowId);
  }

  /** What runs of `agent` for `tenant` (default: runs without one) learnt (`planning.memory`), oldest first. */
  memory(owner: MemoryOwner): Promise<MemoryEntry[]> {
    return readAgentMemory(this.client, owner);
  }

  /** Forgets entries of that memory, by id or `all: true`; later runs no longer read them. */
  forgetMemory(init: ForgetMemoryInit): Promise<ForgetMemoryResult> {
    return forgetAgentMemory(this.client, init, { taskQueue: this.taskQueue });
  }

  /**
   * The live `status` query in a role's view (default `developer`, as for `chain`); for a completed
   * run, rebuilt from its result (no worker needed) and put through the same view.
   */
  async status(workflowId: string, role: ViewerRole = 'developer'): Promise<AgentStatus> {
    const handle = this.getHandle(workflowId);
    const description = await handle.describe();
    if (description.status.name === 'COMPLETED') {
      const result = await handle.result();
      const lens = this.lensOf(identityOfChain(result.chain), role);
      return viewStatus(statusFromResult(result), role, result.chain.steps, lens);
    }
    const lens = await this.liveLens(handle, description, role);
    return lens ? handle.query(statusQuery, role, lens) : handle.query(statusQuery, role);
  }

  /** Yields each step once, as it lands, until the run ends; see `follow`. */
  async *watch(workflowId: string, pollMs = 300): AsyncGenerator<ReasoningStep, AgentResult> {
    const events = this.follow(workflowId, { pollMs, live: false });
    let next = await events.next();
    for (; !next.done; next = await events.next()) if (next.value.type === 'step') yield next.value.step;
    return next.value;
  }

  /**
   * Yields each step once, as it lands, and the text of model calls as it streams, until the run
   * ends. With a `server`, from its push stream (resumed after a dropped connection; `pollMs` is
   * not used); else polls the `chain` query and the run's pending activities (model text, tools'
   * progress from their heartbeats, for calls the view showed), so it works for any
   * run, from any process. Either way it catches up on steps made before it was called.
   */
  async *follow(workflowId: string, options: FollowOptions = {}): AsyncGenerator<WatchEvent, AgentResult> {
    const { pollMs = 300, live = true } = options;
    if (this.server)
      return yield* pushFollow(workflowId, { server: this.server, live, result: (id) => this.result(id) });
    const handle = this.getHandle(workflowId);
    const converter = this.client.options.loadedDataConverter;
    const readers = live
      ? { text: new LiveReplyReader(converter), progress: new LiveProgressReader(converter) }
      : undefined;
    // The tool calls this watcher was shown (by step id), and whether the view narrowed any step.
    const shownCalls = new Map<string, string>();
    let narrowed = false;
    let done: { result?: AgentResult; error?: unknown } | undefined;
    const finished = handle.result().then(
      async (result) => (done = { result: await this.restored(workflowId, result) }),
      (error: unknown) => (done = { error }),
    );
    let seen = 0;
    for (;;) {
      const settled = done;
      // The developer's view, as the live query gives it, so the steps line up and none shows raw;
      // only the steps after the last one seen, so a poll of a long run stays small.
      const after = { afterStep: seen };
      const chain = settled?.result
        ? await this.withEarlierSteps(
            workflowId,
            chainPage(viewChain(settled.result.chain, 'developer', this.resultLens(settled.result)), after),
            'developer',
            after,
            this.resultLens(settled.result),
          )
        : await this.chainOrUndefined(workflowId, after);
      for (const step of chain?.steps ?? []) {
        if (step.type === 'tool_call') shownCalls.set(step.stepId, step.toolCall.toolName);
        yield { type: 'step', step };
      }
      narrowed ||= (chain?.view?.narrowed ?? 0) > 0;
      seen = Math.max(seen, chain?.steps.at(-1)?.stepNumber ?? 0);
      if (settled) {
        if (settled.result) return settled.result;
        throw settled.error;
      }
      // Live text and progress are a courtesy: a failed read (run not started yet, server busy) skips a beat.
      if (readers) yield* this.liveEvents(handle, readers, shownCalls, narrowed);
      await Promise.race([finished, new Promise((r) => setTimeout(r, pollMs))]);
    }
  }

  /**
   * One poll's live events from the run's pending activities (one describe): model text, and the
   * progress of tool calls this watcher was shown, as its view shows them: whole, or, when the
   * policy narrowed any step of the view, the tool and fraction only (the client cannot tell
   * which). A failed read yields nothing.
   */
  private async *liveEvents(
    handle: WorkflowHandle,
    readers: { text: LiveReplyReader; progress: LiveProgressReader },
    shownCalls: ReadonlyMap<string, string>,
    narrowed: boolean,
  ): AsyncGenerator<WatchEvent> {
    const pending = await handle.describe().then(
      (d) => d.raw.pendingActivities ?? [],
      () => [],
    );
    for (const delta of await readers.text.read(pending).catch(() => [])) yield { type: 'live', ...delta };
    for (const update of await readers.progress.read(pending).catch(() => [])) {
      if (shownCalls.get(update.stepId) !== update.toolName) continue;
      const { message: _message, ...shape } = update;
      yield { type: 'progress', ...(narrowed ? shape : update) };
    }
  }

  /** The policy's developer lens for a finished run (follow reads the developer's view). */
  private resultLens(result: AgentResult): ViewLens | undefined {
    return this.lensOf(identityOfChain(result.chain), 'developer');
  }

  private async chainOrUndefined(workflowId: string, page?: ChainPage): Promise<ReasoningChain | undefined> {
    try {
      return await this.chain(workflowId, 'developer', page);
    } catch (err) {
      // A run whose first workflow task has not run yet has no query handler.
      if (err instanceof WorkflowNotFoundError) throw err;
      return undefined;
    }
  }
}
