/**
 * What a model call's heartbeats carry: the reply as it streams, so any client can show it live
 * through Temporal (describe → pending activities) with no extra port. Heartbeat details live in
 * the server's mutable state, not in history; a completed call leaves no trace of them.
 */
export interface LiveReply {
  kind: typeof LIVE_REPLY_KIND;
  /** The end of the streamed text: `tail` starts at character `offset` of the whole. */
  text: LiveTail;
  thinking: LiveTail;
}

export interface LiveTail {
  offset: number;
  tail: string;
}

export const LIVE_REPLY_KIND = 'thoughtline.live-reply';

/** A watcher polling every few hundred ms needs only the recent end; this keeps heartbeats small. */
export const LIVE_TAIL_CHARS = 8_000;

export function isLiveReply(value: unknown): value is LiveReply {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === LIVE_REPLY_KIND;
}

/** Grows with each delta and hands out bounded snapshots. */
export class LiveReplyBuffer {
  private text = '';
  private thinking = '';

  append(kind: 'text' | 'thinking', delta: string): void {
    if (kind === 'text') this.text += delta;
    else this.thinking += delta;
  }

  snapshot(): LiveReply {
    return { kind: LIVE_REPLY_KIND, text: tailOf(this.text), thinking: tailOf(this.thinking) };
  }
}

function tailOf(whole: string): LiveTail {
  const offset = Math.max(0, whole.length - LIVE_TAIL_CHARS);
  return { offset, tail: whole.slice(offset) };
}

/**
 * The part of `tail` a watcher has not shown yet, given how many characters it has shown.
 * When the watcher fell behind by more than the tail, it gets the whole tail (a gap, not a lie).
 */
export function unseenPart(tail: LiveTail, shown: number): string {
  const end = tail.offset + tail.tail.length;
  if (end <= shown) return '';
  return tail.tail.slice(Math.max(0, shown - tail.offset));
}
