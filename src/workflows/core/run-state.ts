import {
  addUsage,
  totalTokens,
  addUsd,
  zeroUsage,
  type CachedObservation,
  type ContinuedState,
  type DelegatedSpend,
  type ModelMessage,
  type ModelReply,
  type StallState,
  type TokenUsage,
} from '../../shared';
import { freshStallState } from './stall-detector';

/** Read-only observations kept for reuse; the oldest go first, so the state stays bounded. */
const MAX_CACHED_OBSERVATIONS = 100;
const ELIDED = '[elided to fit the context window]';
const DROPPED_NOTE_PREFIX = '[Context note:';

/**
 * The loop's memory: the budget ledger (usage, USD), counters, the conversation, the cache of
 * read-only observations and the stall detector. Plain data, so it crosses continue-as-new.
 */
export class RunState {
  usage: TokenUsage = zeroUsage();
  costUsd = 0;
  iteration = 0;
  /** Iterations in this Temporal run only; drives `continueAsNewEvery`. */
  iterationsThisRun = 0;
  modelCalls = 0;
  toolCalls = 0;
  formatErrors = 0;
  cachedCalls = 0;
  cancelRequested: string | undefined;
  readOnlyCache: CachedObservation[] = [];
  stall: StallState = freshStallState();
  previousRunIds: string[] = [];
  /** Whole old turns removed from the conversation so far (see compactToFit). */
  droppedTurns = 0;
  /** Tokens leased from the tenant's hourly quota and not yet spent (may dip below 0 until the next lease). */
  tenant = { allowance: 0, unlimited: false };
  /** Sub-budgets of sub-agents still running: spent as far as the parent's budget checks go. */
  reserved = { tokens: 0, usd: 0 };
  /** What finished sub-agents spent (already in `usage` and `costUsd`). */
  delegated: DelegatedSpend = { runs: 0, usage: zeroUsage(), costUsd: 0, iterations: 0 };
  /** Iteration of the last reflection (planning). */
  lastReflectionAt = 0;

  constructor(
    public lastModel: string,
    public messages: ModelMessage[],
    readonly startedAtMs: number,
  ) {}

  static restore(c: ContinuedState): RunState {
    const state = new RunState(c.lastModel, c.messages, c.startedAtMs);
    Object.assign(state, {
      usage: c.usage,
      costUsd: c.costUsd,
      iteration: c.iteration,
      modelCalls: c.modelCalls,
      toolCalls: c.toolCalls,
      formatErrors: c.formatErrors,
      cachedCalls: c.cachedCalls,
      cancelRequested: c.cancelRequested,
      readOnlyCache: c.readOnlyCache,
      stall: c.stall,
      previousRunIds: c.previousRunIds,
      droppedTurns: c.droppedTurns,
      tenant: { ...c.tenant },
      lastReflectionAt: c.lastReflectionAt,
      ...(c.delegated ? { delegated: c.delegated } : {}),
    });
    return state;
  }

  /** What the budget checks count as spent: the ledger plus running sub-agents' sub-budgets. */
  committed(): { usage: TokenUsage; costUsd: number } {
    return { usage: { ...this.usage, inputTokens: this.usage.inputTokens + this.reserved.tokens }, costUsd: addUsd(this.costUsd, this.reserved.usd) };
  }

  /** A finished sub-agent's spend joins the ledger (its own children's included). */
  countDelegated(spend: { usage: TokenUsage; costUsd: number; iterations: number }): void {
    this.usage = addUsage(this.usage, spend.usage);
    this.costUsd = addUsd(this.costUsd, spend.costUsd);
    this.delegated = {
      runs: this.delegated.runs + 1,
      usage: addUsage(this.delegated.usage, spend.usage),
      costUsd: addUsd(this.delegated.costUsd, spend.costUsd),
      iterations: this.delegated.iterations + spend.iterations,
    };
  }

  countReply(reply: ModelReply): void {
    this.tenant.allowance -= totalTokens(reply.usage);
    this.usage = addUsage(this.usage, reply.usage);
    this.costUsd = addUsd(this.costUsd, reply.costUsd);
    this.lastModel = reply.model;
  }

  appendUserText(text: string): void {
    const last = this.messages[this.messages.length - 1];
    // Tool results and an instruction share one user turn: roles must alternate.
    if (last?.role === 'user') last.content.push({ type: 'text', text });
    else this.messages.push({ role: 'user', content: [{ type: 'text', text }] });
  }

  cached(key: string): CachedObservation | undefined {
    return this.readOnlyCache.find((c) => c.key === key);
  }

  remember(observation: CachedObservation): void {
    this.readOnlyCache = [...this.readOnlyCache.filter((c) => c.key !== observation.key), observation].slice(-MAX_CACHED_OBSERVATIONS);
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
   * the last two user turns are never touched. Returns how many blocks and turns went.
   */
  compactToFit(maxChars: number): number {
    let size = this.contextChars();
    if (size <= maxChars) return 0;
    let removed = this.elideOldest(2, (before, after) => {
      size -= before - after;
      return size <= maxChars;
    });
    let dropped = 0;
    // messages[0] is the task; [1] assistant, [2] its results, ... Drop pairs while the last two user turns remain.
    while (this.contextChars() > maxChars && this.messages.length > 5 && this.messages[1]?.role === 'assistant' && this.messages[2]?.role === 'user') {
      this.messages.splice(1, 2);
      dropped += 1;
    }
    if (dropped > 0) {
      this.droppedTurns += dropped;
      const task = this.messages[0];
      const note = `${DROPPED_NOTE_PREFIX} ${this.droppedTurns} earlier turns were removed to fit the context window; the run's chain keeps them.]`;
      if (task?.role === 'user') task.content = [...task.content.filter((b) => !(b.type === 'text' && b.text.startsWith(DROPPED_NOTE_PREFIX))), { type: 'text', text: note }];
      removed += dropped;
    }
    return removed;
  }

  contextChars(): number {
    return JSON.stringify(this.messages).length;
  }

  /** Elides old results oldest first; `done(before, after)` is told each block's sizes and may stop. */
  private elideOldest(keepTurns: number, done: (before: number, after: number) => boolean): number {
    const userTurns = this.messages.map((m, i) => (m.role === 'user' ? i : -1)).filter((i) => i > 0);
    // With fewer user turns than `keepTurns`, all of them are kept.
    const keepFrom = userTurns[userTurns.length - keepTurns] ?? userTurns[0] ?? Number.MAX_SAFE_INTEGER;
    let elided = 0;
    for (const [index, message] of this.messages.entries()) {
      if (index === 0 || index >= keepFrom || message.role !== 'user') continue;
      for (const [b, block] of message.content.entries()) {
        let replacement: typeof block | undefined;
        if (block.type === 'tool_result' && !block.content.startsWith(ELIDED)) replacement = { ...block, content: ELIDED };
        if (block.type === 'text' && block.text.startsWith('Observation:') && !block.text.includes(ELIDED)) replacement = { ...block, text: `Observation: ${ELIDED}` };
        if (!replacement) continue;
        message.content[b] = replacement;
        elided += 1;
        if (done(JSON.stringify(block).length, JSON.stringify(replacement).length)) return elided;
      }
    }
    return elided;
  }
}
