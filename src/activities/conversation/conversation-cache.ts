import type { ModelMessage } from '../../domain';

/** What the worker keeps of one conversation a run sent: the messages, their hashes, the whole hash. */
export interface KeptConversation {
  messages: readonly ModelMessage[];
  hashes: readonly string[];
  whole: string;
  /**
   * `prefixes[i]`: the whole hash of the first i + 1 messages (the last is `whole`), when known: the
   * next call that extends this conversation chains only its new messages onto them (wholeHashOver).
   */
  prefixes?: readonly string[];
  /** Each message's JSON length, when known (bytes is the array's: see jsonArrayLength). */
  sizes?: readonly number[];
  bytes: number;
}

/** Conversations kept per workflow: its loop's (and that with its reply) and one side call's, as the workflow remembers them. */
const PER_WORKFLOW = 3;

/**
 * The conversations this worker sent to the model, per workflow (its Temporal runs share them, so
 * the first call after a handover can build on the last one before it), so the next call of a run
 * receives only what is new. Bounded by bytes: the workflows used longest ago go first. A run
 * missing here (a restart, another worker, evicted) asks its workflow instead
 * (resolve-conversation.ts).
 */
export class ConversationCache {
  private readonly workflows = new Map<string, KeptConversation[]>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The kept conversation of `workflow` whose whole hash is `whole`. */
  find(workflow: string, whole: string): KeptConversation | undefined {
    const list = this.workflows.get(workflow);
    const kept = list?.find((k) => k.whole === whole);
    if (kept) {
      // Used now: the last to go.
      this.workflows.delete(workflow);
      this.workflows.set(workflow, list!);
    }
    return kept;
  }

  remember(workflow: string, conversation: KeptConversation): void {
    if (conversation.bytes > this.maxBytes) return;
    const before = this.workflows.get(workflow) ?? [];
    const kept = [conversation, ...before.filter((k) => k.whole !== conversation.whole)].slice(0, PER_WORKFLOW);
    this.bytes += total(kept) - total(before);
    this.workflows.delete(workflow);
    this.workflows.set(workflow, kept);
    for (const [oldest, list] of this.workflows) {
      if (this.bytes <= this.maxBytes) break;
      this.bytes -= total(list);
      this.workflows.delete(oldest);
    }
  }

  /** Bytes kept now. */
  get size(): number {
    return this.bytes;
  }
}

const total = (list: readonly KeptConversation[]): number => list.reduce((sum, k) => sum + k.bytes, 0);
