import type { ModelMessage } from '../../shared';

/** What the worker keeps of one conversation a run sent: the messages, their hashes, the whole hash. */
export interface KeptConversation {
  messages: readonly ModelMessage[];
  hashes: readonly string[];
  whole: string;
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

  /** The kept conversation of `run` whose whole hash is `whole`. */
  find(run: string, whole: string): KeptConversation | undefined {
    const list = this.runs.get(run);
    const kept = list?.find((k) => k.whole === whole);
    if (kept) {
      // Used now: the last to go.
      this.runs.delete(run);
      this.runs.set(run, list!);
    }
    return kept;
  }

  remember(run: string, conversation: KeptConversation): void {
    if (conversation.bytes > this.maxBytes) return;
    const before = this.runs.get(run) ?? [];
    const kept = [conversation, ...before.filter((k) => k.whole !== conversation.whole)].slice(0, PER_RUN);
    this.bytes += total(kept) - total(before);
    this.runs.delete(run);
    this.runs.set(run, kept);
    for (const [oldest, list] of this.runs) {
      if (this.bytes <= this.maxBytes) break;
      this.bytes -= total(list);
      this.runs.delete(oldest);
    }
  }

  /** Bytes kept now. */
  get size(): number {
    return this.bytes;
  }
}

const total = (list: readonly KeptConversation[]): number => list.reduce((sum, k) => sum + k.bytes, 0);
