import {
  boundedProgress,
  MAX_PROGRESS_PER_ATTEMPT,
  MAX_PROGRESS_PER_SECOND,
  type ToolProgress,
} from '../domain/tools/tool-progress';
import { redactFields } from '../domain/secrets/sensitive-fields';
import type { Redactor } from '../tools/redact-secrets';

/** A published update: the attempt's running count (`seq`, from 1) with the bounded, redacted progress. */
export type NumberedProgress = ToolProgress & { seq: number };

export interface ToolProgressReporter {
  /** What `ctx.progress(...)` calls: bounded, redacted, published at most MAX_PROGRESS_PER_SECOND (latest wins). */
  report(update: unknown): void;
  /** The latest update accepted, published or waiting: what the keep-alive heartbeat carries. */
  latest(): NumberedProgress | undefined;
  /** Publishes the update still waiting and stops: the call has ended. */
  close(): void;
  /** Updates dropped: unreadable, over MAX_PROGRESS_PER_ATTEMPT, or given after the call ended. */
  dropped(): number;
}

/**
 * One attempt's progress. Each update goes through the worker's redactor (and the tool's
 * sensitive fields on `data`) before anything keeps it; a burst keeps only its latest, sent when
 * the interval allows and at the end, so a watcher sees the last word before the result.
 */
export function createToolProgressReporter(
  publish: (progress: NumberedProgress) => void,
  redact: Redactor,
  sensitiveFields: readonly string[],
): ToolProgressReporter {
  const interval = 1_000 / MAX_PROGRESS_PER_SECOND;
  let last: NumberedProgress | undefined;
  let waiting: NumberedProgress | undefined;
  let sentAt = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let published = 0;
  let dropped = 0;
  let closed = false;
  const send = (): void => {
    timer = undefined;
    if (!waiting) return;
    const progress = waiting;
    waiting = undefined;
    sentAt = Date.now();
    try {
      publish(progress);
    } catch {
      // A listener's failure is its own: the tool goes on.
    }
  };
  return {
    report(update) {
      const bounded = closed ? undefined : safely(() => redacted(boundedProgress(update), redact, sensitiveFields));
      if (!bounded || published >= MAX_PROGRESS_PER_ATTEMPT) {
        dropped += 1;
        return;
      }
      published += 1;
      last = waiting = { ...bounded, seq: published };
      const wait = sentAt + interval - Date.now();
      if (wait <= 0) return send();
      timer ??= setTimeout(send, wait);
    },
    latest: () => last,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      send();
    },
    dropped: () => dropped,
  };
}

function redacted(
  progress: ToolProgress | undefined,
  redact: Redactor,
  sensitiveFields: readonly string[],
): ToolProgress | undefined {
  if (!progress) return undefined;
  const data = progress.data === undefined ? undefined : redactFields(progress.data, sensitiveFields);
  return redact({ ...progress, ...(data === undefined ? {} : { data }) }) as ToolProgress;
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
