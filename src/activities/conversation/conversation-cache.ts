import type { ModelMessage } from '../../shared';

/** What the worker keeps of one conversation a run sent: the messages and every prefix's hash. */
export interface KeptConversation {
  messages: readonly ModelMessage[];
  hashes: readonly string[];
  bytes: number;
}

/** Conversations kept per run: its loop's and one side call's, as the workflow remembers them. */
const PER_RUN = 2;

/**
 * The conversations this worker sent to the model, per Temporal run, so the next call of a run
 * receives only what is new. Bounded by bytes: the runs used longest ago go first. A run missing
 * here (a restart, another worker, evicted) asks its workflow instead (resolve-conversation.ts).
 */
export class ConversationCache {
  private readonly runs = new Map<string, KeptConversation[]>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The first `count` messages of a kept conversation whose prefix of that length has `hash`. */
  prefix(run: string, count: number, hash: string): { messages: readonly ModelMessage[]; hashes: readonly string[] } | undefined {
    const kept = this.runs.get(run)?.find((k) => k.hashes[count - 1] === hash);
    if (!kept) return undefined;
    this.touch(run);
    return { messages: kept.messages.slice(0, count), hashes: kept.hashes.slice(0, count) };
  }

  remember(run: string, conversation: KeptConversation): void {
    if (conversation.bytes > this.maxBytes) return;
    const last = conversation.hashes.at(-1);
    const others = (this.runs.get(run) ?? []).filter((k) => k.hashes.at(-1) !== last);
    const kept = [conversation, ...others].slice(0, PER_RUN);
    this.bytes += kept.reduce((sum, k) => sum + k.bytes, 0) - (this.runs.get(run) ?? []).reduce((sum, k) => sum + k.bytes, 0);
    this.runs.delete(run);
    this.runs.set(run, kept);
    for (const [oldest, list] of this.runs) {
      if (this.bytes <= this.maxBytes) break;
      this.bytes -= list.reduce((sum, k) => sum + k.bytes, 0);
      this.runs.delete(oldest);
    }
  }

  /** Bytes kept now (for tests and figures). */
  get size(): number {
    return this.bytes;
  }

  private touch(run: string): void {
    const list = this.runs.get(run);
    if (!list) return;
    this.runs.delete(run);
    this.runs.set(run, list);
  }
}
