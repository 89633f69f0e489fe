import type { ViewerRole } from '../../domain';
import type { IncrementalChainView } from '../../domain/chain/chain-view';
import type { RunEvent } from '../../domain/run/run-event';
import type { ViewLens } from '../../domain/visibility';
import { liveTextInView, liveTextShown, type LiveModelCall } from '../policy/live-text-in-lens';

export type TextDelta = Extract<RunEvent, { type: 'text_delta' }>;

/** A word held back longer than this goes out as it is (redacted as a whole): no credential is that long. */
const MAX_HELD_CHARS = 2_048;
/** Text a reply keeps as context for the redaction; past it the context starts afresh (bounded memory). */
const MAX_WINDOW_CHARS = 64 * 1024;
/** Known values shorter than this are not redacted in free text (secret-patterns), so never held for. */
const MIN_KNOWN_CHARS = 8;

/** One streamed reply (a model call's attempt and kind) as this watcher has shown it. */
interface Reply {
  /** The model call's attempt: a reply of another one ends this one (a run's model calls come one at a time). */
  attempt: string;
  /** The latest delta, whose fields a part sent at the reply's end carries. */
  last: TextDelta;
  /** Raw characters of the reply taken so far. */
  taken: number;
  /** The raw text since the last point no redaction can reach back over (a line end). */
  window: string;
  /** The view of the window's part already sent. */
  shown: string;
  /** Characters sent so far, in the view: the next delta's offset. */
  sent: number;
  /** Nothing more is sent of it: the view does not stream it, its start was missed, or a redaction reached back. */
  stopped: boolean;
  call: LiveModelCall | undefined;
}

/**
 * The live model text one watcher may see: each delta goes through the run's views (a delta is
 * sent only when every step it becomes is shown whole in this view and lens), and is redacted as
 * the thought it becomes would be, over the whole line so far, never piece by piece: a word is
 * held back until it ends (whitespace) or the reply does, and so is any end of the text that may
 * begin a known sensitive value, so a value split over deltas never goes out in parts. Offsets
 * count the characters this view was sent. A redaction that would change text already sent stops
 * the reply's live text (its step brings it whole); so does a gap.
 */
export class LiveText {
  private readonly replies = new Map<string, Reply>();

  constructor(
    private readonly viewer: IncrementalChainView,
    private readonly view: ViewerRole,
    private readonly lens: ViewLens | undefined,
    /** The run's model call in progress, as its stream knows it now. */
    private readonly modelCall: () => LiveModelCall | undefined,
  ) {}

  /** What to send for one published delta, in this view: what it ended of earlier replies, then its own part. */
  take(delta: TextDelta): TextDelta[] {
    const attempt = `${delta.activityId}\u0000${delta.attempt}`;
    const key = `${attempt}\u0000${delta.kind}`;
    let reply = this.replies.get(key);
    // A new model call (or attempt): the replies of the one before have ended.
    const out = reply ? [] : this.flushWhere((other) => other.attempt !== attempt);
    if (!reply) {
      reply = this.open(delta, attempt);
      this.replies.set(key, reply);
    }
    reply.last = delta;
    if (reply.stopped) return out;
    // A repeat is skipped; a gap holds text this view never saw, so the reply stops.
    if (delta.offset > reply.taken) reply.stopped = true;
    const text = delta.text.slice(Math.max(0, reply.taken - delta.offset));
    if (reply.stopped || text === '') return out;
    reply.window += text;
    reply.taken += text.length;
    const sent = this.send(reply, this.stableEnd(reply.window));
    return sent ? [...out, sent] : out;
  }

  /**
   * Sends what replies held back and forgets them: a reply has ended when its model call's result
   * is in, another call streams, or the run ended.
   */
  flush(): TextDelta[] {
    return this.flushWhere(() => true);
  }

  private flushWhere(ended: (reply: Reply) => boolean): TextDelta[] {
    const out: TextDelta[] = [];
    for (const [key, reply] of this.replies) {
      if (!ended(reply)) continue;
      const sent = reply.stopped ? undefined : this.send(reply, reply.window.length);
      if (sent) out.push(sent);
      this.replies.delete(key);
    }
    return out;
  }

  private open(delta: TextDelta, attempt: string): Reply {
    const call = this.modelCall();
    const shown = liveTextShown(this.viewer, call, delta.kind, this.view, this.lens);
    // A reply joined midway lacks the text before: a value may have begun there.
    const stopped = !shown || delta.offset > 0;
    return { attempt, last: delta, taken: 0, window: '', shown: '', sent: 0, stopped, call };
  }

  /**
   * Where the window's text is final: before the word it ends in, and before any end of it that
   * may begin a known sensitive value; a held part longer than MAX_HELD_CHARS goes out.
   */
  private stableEnd(window: string): number {
    let end = window.length;
    const space = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\n'), window.lastIndexOf('\t'));
    end = space + 1;
    for (const value of this.viewer.sensitiveValuesFor(this.view, this.lens)) {
      if (value.length < MIN_KNOWN_CHARS) continue;
      for (let n = Math.min(value.length - 1, window.length); n > 0; n--) {
        if (window.length - n >= end) break;
        if (window.endsWith(value.slice(0, n))) {
          end = window.length - n;
          break;
        }
      }
    }
    return window.length - end > MAX_HELD_CHARS ? window.length : end;
  }

  /** Sends the view of the window up to `end` beyond what was sent, or stops the reply if the view changed what was sent. */
  private send(reply: Reply, end: number): TextDelta | undefined {
    if (!reply.call) return undefined;
    const committed = reply.window.slice(0, end);
    const viewed = liveTextInView(this.viewer, reply.call, committed, this.view, this.lens);
    if (!viewed.startsWith(reply.shown)) {
      reply.stopped = true;
      return undefined;
    }
    const text = viewed.slice(reply.shown.length);
    reply.shown = viewed;
    this.reanchor(reply, end);
    if (text === '') return undefined;
    const out: TextDelta = { ...reply.last, offset: reply.sent, text };
    reply.sent += text.length;
    return out;
  }

  /**
   * Starts the window after the last line end of its sent part when the view of the two halves
   * is the view of the whole (no redaction spans the line end); past MAX_WINDOW_CHARS, at `end`.
   */
  private reanchor(reply: Reply, end: number): void {
    const cut = reply.window.lastIndexOf('\n', end - 1) + 1;
    if (cut > 0) {
      const tail = liveTextInView(this.viewer, reply.call!, reply.window.slice(cut, end), this.view, this.lens);
      const head = liveTextInView(this.viewer, reply.call!, reply.window.slice(0, cut), this.view, this.lens);
      if (head + tail === reply.shown) {
        reply.window = reply.window.slice(cut);
        reply.shown = tail;
        return;
      }
    }
    if (reply.window.length > MAX_WINDOW_CHARS) {
      reply.window = reply.window.slice(end);
      reply.shown = '';
    }
  }
}
