import {
  addUsage,
  totalTokens,
  addUsd,
  zeroUsage,
  RUN_STATE_SCHEMA_VERSION,
  type CachedObservation,
  type DelegatedSpend,
  type FailedCall,
  MAX_FAILED_CALLS,
  type ModelMessage,
  type ModelReply,
  RunStateData,
  type StallState,
  type SubBudget,
  type TokenUsage,
} from '../../../domain';
import { jsonBytes } from '../../../domain/run/payload-size';
import { messageJson, messagesJsonLength } from '../../../domain/model/message-json';
import {
  EMPTY_TALLY,
  tallyModelTime,
  timesOfTally,
  type ModelCallPurpose,
  type ModelTimes,
} from '../../../domain/chain/model-times';
import {
  CONTEXT_SUMMARY_PREFIX,
  contextSummaryBlock,
  previousContextSummary,
} from '../../../domain/model/context-summary';
import { freshStallState } from './stall-detector';

/** Read-only observations kept for reuse; the oldest go first, so the state stays bounded. */
const MAX_CACHED_OBSERVATIONS = 100;
/** Earlier runs' ids carried; older ones are only counted, so the carried state stays bounded however many handovers. */
const MAX_RUN_IDS = 100;
const ELIDED = '[elided to fit the context window]';
const DROPPED_NOTE_PREFIX = '[Context note:';

/** RunStateData's field names: restore takes exactly these from what it is given. */
const CARRIED_FIELDS = RunStateData.keyof().options;

const roundUsd = (usd: number): number => Math.round(usd * 1e6) / 1e6;

/** What a running sub-agent or model call holds against the budgets until it reports. */
type Held = Pick<SubBudget, 'tokenBudget' | 'costBudgetUsd'>;

/**
 * The loop's memory: the budget ledger (usage, USD), counters, the conversation, the cache of
 * read-only observations and the stall detector. Its carried fields are RunStateData, the one
 * versioned list that restore and carry-over share; code outside changes it only through the
 * named methods below.
 */
export class RunState {
  /** Iterations in this Temporal run only; drives `continueAsNewEvery`. */
  private thisRun = 0;
  /** Sub-budgets of sub-agents still running: spent as far as the parent's budget checks go. */
  private held = { tokens: 0, usd: 0 };

  private data: RunStateData;
  /** Bytes the read-only cache may hold (entries as JSON); unbounded until limitCacheBytes. */
  private cacheLimit: number | undefined;

  /** A new agent run: the conversation starts with `messages` (the task). */
  constructor(model: string, messages: ModelMessage[], startedAtMs: number) {
    this.data = freshRunStateData(model, messages, startedAtMs);
  }

  /** The state an earlier Temporal run of this agent run carried over (already parsed); other fields of it are ignored. */
  static restore(carried: RunStateData): RunState {
    const data = Object.fromEntries(
      CARRIED_FIELDS.flatMap((key) => (carried[key] === undefined ? [] : [[key, carried[key]]])),
    ) as RunStateData;
    const state = new RunState(carried.lastModel, carried.messages, carried.startedAtMs);
    state.data = { ...data, schemaVersion: RUN_STATE_SCHEMA_VERSION, tenant: { ...carried.tenant } };
    return state;
  }

  /** What the next Temporal run restores from; `runId` (this run) joins the earlier runs' ids. */
  carried(runId: string): RunStateData {
    const ids = [...this.data.previousRunIds, runId];
    const dropped = Math.max(0, ids.length - MAX_RUN_IDS);
    return {
      ...this.data,
      schemaVersion: RUN_STATE_SCHEMA_VERSION,
      tenant: { ...this.data.tenant },
      previousRunIds: ids.slice(dropped),
      earlierRunsDropped: (this.data.earlierRunsDropped ?? 0) + dropped,
    };
  }

  get messages(): ModelMessage[] {
    return this.data.messages;
  }
  get usage(): TokenUsage {
    return this.data.usage;
  }
  get costUsd(): number {
    return this.data.costUsd;
  }
  get iteration(): number {
    return this.data.iteration;
  }
  get iterationsThisRun(): number {
    return this.thisRun;
  }
  get modelCalls(): number {
    return this.data.modelCalls;
  }
  get toolCalls(): number {
    return this.data.toolCalls;
  }
  get formatErrors(): number {
    return this.data.formatErrors;
  }
  get cachedCalls(): number {
    return this.data.cachedCalls;
  }
  /** Planning and reasoning time over every Temporal run; undefined until a planner call or turn has replied. */
  get times(): ModelTimes | undefined {
    return this.data.times ? timesOfTally(this.data.times) : undefined;
  }
  get lastModel(): string {
    return this.data.lastModel;
  }
  get startedAtMs(): number {
    return this.data.startedAtMs;
  }
  get cancelRequested(): string | undefined {
    return this.data.cancelRequested;
  }
  get stall(): StallState {
    return this.data.stall;
  }
  get previousRunIds(): readonly string[] {
    return this.data.previousRunIds;
  }
  /** Handovers so far: the earlier Temporal runs of this agent run, the dropped ids included. */
  get continuations(): number {
    return this.data.previousRunIds.length + (this.data.earlierRunsDropped ?? 0);
  }
  /** Whole old turns removed from the conversation so far (see compactToFit). */
  get droppedTurns(): number {
    return this.data.droppedTurns;
  }
  get lastReflectionAt(): number {
    return this.data.lastReflectionAt;
  }
  /** Tokens leased from the tenant's hourly quota and not yet spent. */
  get tenantTokens(): Readonly<RunStateData['tenant']> {
    return this.data.tenant;
  }
  /** What finished sub-agents spent (already in `usage` and `costUsd`). */
  get delegated(): DelegatedSpend {
    return this.data.delegated ?? { runs: 0, usage: zeroUsage(), costUsd: 0, iterations: 0 };
  }
  get reserved(): Readonly<{ tokens: number; usd: number }> {
    return this.held;
  }

  /** A new ReAct iteration begins. */
  startIteration(): number {
    this.data.iteration += 1;
    this.thisRun += 1;
    return this.data.iteration;
  }

  /** The first `cancel` wins; returns false when one was already requested. */
  requestCancel(why: string): boolean {
    if (this.data.cancelRequested !== undefined) return false;
    this.data.cancelRequested = why;
    return true;
  }

  setStall(stall: StallState): void {
    this.data.stall = stall;
  }

  countModelCall(): void {
    this.data.modelCalls += 1;
  }
  /** A model call's reply (or failure, 0 ms) is in: its activity's own duration joins the planning or reasoning time. */
  countModelTime(purpose: ModelCallPurpose | undefined, iteration: number, durationMs: number): void {
    const before = this.data.times ?? EMPTY_TALLY;
    const after = tallyModelTime(before, purpose, iteration, durationMs);
    if (after !== before) this.data.times = after;
  }
  countToolCall(): void {
    this.data.toolCalls += 1;
  }
  countCachedCall(): void {
    this.data.cachedCalls += 1;
  }
  countFormatError(): void {
    this.data.formatErrors += 1;
  }

  markReflection(iteration: number): void {
    this.data.lastReflectionAt = iteration;
  }

  /** A lease from the tenant quota: `granted` more tokens; `unlimited` when the tenant has no hourly limit. */
  leaseTenantTokens(granted: number, unlimited: boolean): void {
    if (unlimited) this.data.tenant.unlimited = true;
    this.data.tenant.allowance += granted;
  }

  /**
   * Calls and USD from a tenant lease (`now` workflow time). A lease without `callsPerMinute` or
   * `costPerHourUsd` drops that kind of holding: the tenant has no such limit (any more).
   */
  leaseTenantRates(
    lease: { calls?: number; callsPerMinute?: number; callsExpireAt?: string; usd?: number; costPerHourUsd?: number },
    now: number,
  ): void {
    const held = this.data.tenant;
    if (lease.callsPerMinute === undefined) {
      delete held.calls;
      delete held.callsExpireAt;
    } else if ((lease.calls ?? 0) > 0) {
      held.calls = this.tenantCalls(now) + (lease.calls ?? 0);
      held.callsExpireAt = lease.callsExpireAt !== undefined ? Date.parse(lease.callsExpireAt) : now;
    } else if (held.calls === undefined) {
      held.calls = 0;
    }
    // Spend beyond what was held was reported with this lease: the grant starts from zero.
    if (lease.costPerHourUsd === undefined) delete held.usd;
    else held.usd = roundUsd(Math.max(0, held.usd ?? 0) + (lease.usd ?? 0));
  }

  /** Leased calls still usable at `now`; 0 when none are held or they expired. */
  tenantCalls(now: number): number {
    const { calls, callsExpireAt } = this.data.tenant;
    return calls !== undefined && callsExpireAt !== undefined && now < callsExpireAt ? calls : 0;
  }

  /** One model or tool call made with a leased call (tenants with `callsPerMinute`). */
  spendTenantCall(): void {
    if (this.data.tenant.calls !== undefined) this.data.tenant.calls -= 1;
  }

  /** What the budget checks count as spent: the ledger plus running sub-agents' sub-budgets. */
  committed(): { usage: TokenUsage; costUsd: number } {
    return {
      usage: { ...this.usage, inputTokens: this.usage.inputTokens + this.held.tokens },
      costUsd: addUsd(this.costUsd, this.held.usd),
    };
  }

  /** A sub-agent starts: its sub-budget counts as spent until it reports. */
  reserve(budget: Held): void {
    this.held = {
      tokens: this.held.tokens + (budget.tokenBudget ?? 0),
      usd: roundUsd(this.held.usd + (budget.costBudgetUsd ?? 0)),
    };
  }

  /** A sub-agent reported (or was abandoned): its sub-budget is no longer held. */
  release(budget: Held): void {
    this.held = {
      tokens: Math.max(0, this.held.tokens - (budget.tokenBudget ?? 0)),
      usd: Math.max(0, roundUsd(this.held.usd - (budget.costBudgetUsd ?? 0))),
    };
  }

  /** A finished sub-agent's spend joins the ledger (its own children's included). */
  countDelegated(spend: { usage: TokenUsage; costUsd: number; iterations: number }): void {
    this.data.usage = addUsage(this.data.usage, spend.usage);
    this.data.costUsd = addUsd(this.data.costUsd, spend.costUsd);
    const before = this.delegated;
    this.data.delegated = {
      runs: before.runs + 1,
      usage: addUsage(before.usage, spend.usage),
      costUsd: addUsd(before.costUsd, spend.costUsd),
      iterations: before.iterations + spend.iterations,
    };
  }

  /**
   * A remote A2A agent's spend (reported, or its sub-budget when unknown): it joins the ledger like
   * a child's, and, unlike a child's, comes out of what this run holds from its tenant's quota: a
   * child leases from the quota for each of its own calls, a remote agent leased nothing here. The
   * next lease then asks the quota for the shortfall (and counts the USD overspent), so the
   * tenant's hourly limits see it; the run's next call stops at a limit the remote spend reached.
   */
  countRemoteSpend(spend: { usage: TokenUsage; costUsd: number }): void {
    this.countDelegated({ ...spend, iterations: 0 });
    this.data.tenant.allowance -= totalTokens(spend.usage);
    this.spendTenantUsd(spend.costUsd);
  }

  /** A model call made inside a tool (type `llm`): its spend joins the ledger like a reply's. */
  countToolSpend(spend: { usage: TokenUsage; costUsd: number }): void {
    this.data.tenant.allowance -= totalTokens(spend.usage);
    this.spendTenantUsd(spend.costUsd);
    this.data.usage = addUsage(this.data.usage, spend.usage);
    this.data.costUsd = addUsd(this.data.costUsd, spend.costUsd);
  }

  private spendTenantUsd(usd: number): void {
    if (this.data.tenant.usd !== undefined) this.data.tenant.usd = roundUsd(this.data.tenant.usd - usd);
  }

  countReply(reply: ModelReply): void {
    this.data.tenant.allowance -= totalTokens(reply.usage);
    this.spendTenantUsd(reply.costUsd);
    this.data.usage = addUsage(this.data.usage, reply.usage);
    this.data.costUsd = addUsd(this.data.costUsd, reply.costUsd);
    this.data.lastModel = reply.model;
  }

  addMessage(message: ModelMessage): void {
    this.data.messages.push(message);
  }

  /** Takes the last message out when it is the model's (an unusable reply the API would refuse to see again). */
  dropLastAssistantMessage(): void {
    if (this.data.messages[this.data.messages.length - 1]?.role === 'assistant') this.data.messages.pop();
  }

  appendUserText(text: string): void {
    const last = this.data.messages[this.data.messages.length - 1];
    // Tool results and an instruction share one user turn: roles must alternate.
    if (last?.role === 'user') last.content.push({ type: 'text', text });
    else this.data.messages.push({ role: 'user', content: [{ type: 'text', text }] });
  }

  /** The remembered failure of an identical call (same tool, same arguments), if any. */
  failedCall(key: string): FailedCall | undefined {
    return this.data.failedCalls.find((f) => f.key === key);
  }

  /** Remembers a failed call, keeping the latest MAX_FAILED_CALLS. */
  rememberFailure(failure: FailedCall): void {
    this.data.failedCalls = [...this.data.failedCalls.filter((f) => f.key !== failure.key), failure].slice(
      -MAX_FAILED_CALLS,
    );
  }

  /** Rewrites the model's last message, as a new object (sent conversations remember hashes by object). */
  /** The first message's task text replaced (an input guardrail's redaction), before any model read it. */
  replaceTaskText(task: string, text: string): void {
    const first = this.data.messages[0];
    if (first?.role !== 'user') return;
    first.content = first.content.map((block) =>
      block.type === 'text' && block.text === task ? { ...block, text } : block,
    );
  }

  rewriteLastAssistantMessage(rewrite: (message: ModelMessage) => ModelMessage): void {
    const last = this.data.messages.length - 1;
    const message = this.data.messages[last];
    if (message?.role === 'assistant') this.data.messages[last] = rewrite(message);
  }

  cached(key: string): CachedObservation | undefined {
    return this.data.readOnlyCache.find((c) => c.key === key);
  }

  remember(observation: CachedObservation): void {
    const cache = [...this.data.readOnlyCache.filter((c) => c.key !== observation.key), observation].slice(
      -MAX_CACHED_OBSERVATIONS,
    );
    this.data.readOnlyCache = this.withinLimit(cache);
  }

  /**
   * Bounds the read-only cache by bytes as well as by count, from now on and at once: the oldest
   * entries go first.
   */
  limitCacheBytes(bytes: number): void {
    this.cacheLimit = bytes;
    this.data.readOnlyCache = this.withinLimit(this.data.readOnlyCache);
  }

  private withinLimit(cache: CachedObservation[]): CachedObservation[] {
    if (this.cacheLimit === undefined) return cache;
    const kept = newestWithin(cache, this.cacheLimit);
    return kept.length === cache.length ? cache : kept;
  }

  /** The read-only cache's size as JSON, which is what it adds to a handover. */
  cacheBytes(): number {
    return this.data.readOnlyCache.reduce((sum, c) => sum + jsonBytes(c), 0);
  }

  /**
   * Frees context by eliding tool results older than the last `keepTurns` user turns; the task
   * itself is kept. Returns how many blocks were elided.
   */
  compact(keepTurns = 2): number {
    return this.elideOldest(keepTurns, () => false);
  }

  /**
   * Keeps the conversation at most `maxChars` of JSON: first elides the oldest tool results, one
   * at a time; if turns themselves still add up to too much, drops the oldest whole turns (an
   * assistant message and the results that answer it) and says so after the task. The task and
   * the last two user turns are never touched. Returns how many blocks and turns went. `size`:
   * contextChars(), when the caller has it (it reads the whole conversation as JSON).
   */
  compactToFit(maxChars: number, size = this.contextChars()): number {
    if (size <= maxChars) return 0;
    const elided = this.elideOldest(2, (before, after) => {
      size -= before - after;
      return size <= maxChars;
    });
    const dropped = this.turnsToDrop(maxChars, size);
    this.dropTurns(dropped);
    return elided + dropped;
  }

  /**
   * How many of the oldest whole turns must go for the conversation to be at most `maxChars` of
   * JSON (the task and the last two user turns always stay). Changes nothing. `size`:
   * contextChars(), when the caller has it.
   */
  turnsToDrop(maxChars: number, size = this.contextChars()): number {
    const messages = this.data.messages;
    // `size`, the conversation's JSON length, is kept as pairs go: an array's JSON is its items'
    // JSON joined by commas in brackets, so dropping two of them (never the last) takes their JSON
    // and two commas. Not JSON.stringify again for every pair dropped, which grew with the conversation.
    let turns = 0;
    // messages[0] is the task; [1] assistant, [2] its results, ... Drop pairs while the last two user turns remain.
    for (let at = 1; ; at += 2) {
      const left = messages.length - 2 * turns;
      const [assistant, results] = [messages[at], messages[at + 1]];
      if (!(size > maxChars && left > 5 && assistant?.role === 'assistant' && results?.role === 'user')) break;
      size -= messageJson(assistant).length + messageJson(results).length + 2;
      turns += 1;
    }
    return turns;
  }

  /** The messages of the oldest `turns` whole turns, as they are now (what a summary of them reads). */
  oldestTurns(turns: number): ModelMessage[] {
    return this.data.messages.slice(1, 1 + 2 * turns);
  }

  /** The summary an earlier compaction left after the task, if any. */
  get contextSummary(): string | undefined {
    return previousContextSummary(this.data.messages[0]);
  }

  /**
   * Drops the oldest `turns` whole turns (from turnsToDrop). A `summary` of them (and of any
   * earlier summary) takes their place after the task; without one, a note says they went, and
   * an earlier summary stays.
   */
  dropTurns(turns: number, summary?: string): void {
    if (turns <= 0) return;
    const messages = this.data.messages;
    messages.splice(1, 2 * turns);
    this.data.droppedTurns += turns;
    const task = messages[0];
    if (task?.role !== 'user') return;
    const kept = task.content.filter(
      (b) =>
        !(
          b.type === 'text' &&
          (b.text.startsWith(DROPPED_NOTE_PREFIX) ||
            (summary !== undefined && b.text.startsWith(CONTEXT_SUMMARY_PREFIX)))
        ),
    );
    const text =
      summary !== undefined
        ? contextSummaryBlock(summary, this.data.droppedTurns)
        : `${DROPPED_NOTE_PREFIX} ${this.data.droppedTurns} earlier turns were removed to fit the context window; the run's chain keeps them.]`;
    task.content = [...kept, { type: 'text', text }];
  }

  /** `JSON.stringify(messages).length`, each message's JSON made once (messageJson). */
  contextChars(): number {
    return messagesJsonLength(this.data.messages);
  }

  /** Elides old results oldest first; `done(before, after)` is told each block's sizes and may stop. */
  private elideOldest(keepTurns: number, done: (before: number, after: number) => boolean): number {
    const messages = this.data.messages;
    const userTurns = messages.map((m, i) => (m.role === 'user' ? i : -1)).filter((i) => i > 0);
    // With fewer user turns than `keepTurns`, all of them are kept.
    const keepFrom = userTurns[userTurns.length - keepTurns] ?? userTurns[0] ?? Number.MAX_SAFE_INTEGER;
    let elided = 0;
    for (const [index, message] of messages.entries()) {
      if (index === 0 || index >= keepFrom || message.role !== 'user') continue;
      for (const [b, block] of message.content.entries()) {
        let replacement: typeof block | undefined;
        if (block.type === 'tool_result' && !block.content.startsWith(ELIDED))
          replacement = { ...block, content: ELIDED };
        if (block.type === 'text' && block.text.startsWith('Observation:') && !block.text.includes(ELIDED))
          replacement = { ...block, text: `Observation: ${ELIDED}` };
        if (!replacement) continue;
        message.content[b] = replacement;
        elided += 1;
        if (done(JSON.stringify(block).length, JSON.stringify(replacement).length)) return elided;
      }
    }
    return elided;
  }
}

/** The newest entries whose JSON adds up to at most `bytes`; an entry over the bound on its own is not kept. */
function newestWithin(cache: readonly CachedObservation[], bytes: number): CachedObservation[] {
  let total = 0;
  let from = cache.length;
  while (from > 0) {
    total += jsonBytes(cache[from - 1]);
    if (total > bytes) break;
    from -= 1;
  }
  return cache.slice(from);
}

/** The state of a run that has done nothing yet: its conversation, model and start; every count zero. */
export function freshRunStateData(model: string, messages: ModelMessage[], startedAtMs: number): RunStateData {
  return {
    schemaVersion: RUN_STATE_SCHEMA_VERSION,
    messages,
    usage: zeroUsage(),
    costUsd: 0,
    iteration: 0,
    modelCalls: 0,
    toolCalls: 0,
    formatErrors: 0,
    cachedCalls: 0,
    lastModel: model,
    startedAtMs,
    droppedTurns: 0,
    readOnlyCache: [],
    stall: freshStallState(),
    failedCalls: [],
    tenant: { allowance: 0, unlimited: false },
    lastReflectionAt: 0,
    previousRunIds: [],
    earlierRunsDropped: 0,
  };
}
