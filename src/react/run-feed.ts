import type { ChainStatus, ReasoningStep, RunEndEvent, RunEnding } from './api-types';
import { followStream, type StreamState } from './follow-stream';
import type { SseMessage } from './sse-parser';
import type { ThoughtlineApiError } from './thoughtline-api-error';
import type { ClientLimits } from './client-limits';

/** What a feed needs of its client: where the server is, the token's headers, the bounds. */
export interface FeedConnection {
  url(path: string): string;
  headers(extra?: Record<string, string>): Record<string, string>;
  readonly limits: ClientLimits;
}

/** What a run's event stream has shown so far: only what the server sent, nothing guessed. */
export interface RunFeedState {
  runId: string;
  /** The run's steps in the caller's view, by step number, each once; at most `limits.maxSteps`, the newest. */
  steps: readonly ReasoningStep[];
  /** Steps dropped from the front to stay within `maxSteps`. */
  droppedSteps: number;
  chainStatus?: ChainStatus;
  /** The model's text streaming for the reply in progress (not durable: its step replaces it). */
  liveText: string;
  /** How the run ended, in the caller's view, once `end` came. */
  ending?: RunEnding;
  outcome?: RunEndEvent['outcome'];
  stream: StreamState;
  error?: ThoughtlineApiError;
  /** Counts status, approval, sub-agent and end events: readers of `GET /v1/runs/{id}` read again when it moves. */
  revision: number;
}

/**
 * One run's `GET /v1/runs/{id}/events`, followed until `end` and shared by every hook watching
 * the run. Steps are kept by number (a repeat or an older one is ignored), so a reconnect that
 * resumes with Last-Event-ID adds each missed step once.
 */
export class RunFeed {
  private state: RunFeedState;
  private readonly listeners = new Set<() => void>();
  private readonly controller = new AbortController();
  /** The streamed reply: its model call and how much of its text this feed holds. */
  private reply = { key: '', length: 0 };

  constructor(
    private readonly client: FeedConnection,
    runId: string,
  ) {
    this.state = { runId, steps: [], droppedSteps: 0, liveText: '', stream: 'connecting', revision: 0 };
    const path = `/v1/runs/${encodeURIComponent(runId)}/events`;
    void followStream({
      request: (lastEventId) => ({
        url: client.url(path),
        init: {
          headers: client.headers({
            accept: 'text/event-stream',
            ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
          }),
        },
      }),
      onMessage: (message) => this.read(message),
      onState: (stream, error) => this.update({ stream, ...(error ? { error } : {}) }),
      maxEventChars: client.limits.maxEventChars,
      signal: this.controller.signal,
    });
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): RunFeedState => this.state;

  close(): void {
    this.controller.abort();
  }

  private update(change: Partial<RunFeedState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  /** One event; true for `end`, the stream's last. */
  private read(message: SseMessage): boolean {
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(message.data) as Record<string, unknown>;
    } catch {
      return false;
    }
    const chainStatus = (data['chainStatus'] as ChainStatus | undefined) ?? this.state.chainStatus;
    switch (message.event) {
      case 'step':
        this.addStep(data['step'] as ReasoningStep, chainStatus);
        return false;
      case 'text_delta':
        this.addText(data);
        return false;
      case 'status':
      case 'approval':
      case 'sub_agent':
        this.update({ ...(chainStatus ? { chainStatus } : {}), revision: this.state.revision + 1 });
        return false;
      case 'end': {
        const end = data as Partial<RunEndEvent>;
        this.update({
          ...(chainStatus ? { chainStatus } : {}),
          ...(end.ending ? { ending: end.ending } : {}),
          ...(end.outcome ? { outcome: end.outcome } : {}),
          liveText: '',
          revision: this.state.revision + 1,
        });
        return true;
      }
      default:
        // tool_progress and sub_agent_step: not kept (a sub-agent's own feed has its steps).
        return false;
    }
  }

  private addStep(step: ReasoningStep | undefined, chainStatus: ChainStatus | undefined): void {
    const last = this.state.steps[this.state.steps.length - 1];
    if (!step || typeof step.stepNumber !== 'number' || (last && step.stepNumber <= last.stepNumber)) return;
    const steps = [...this.state.steps, step];
    const over = Math.max(0, steps.length - this.client.limits.maxSteps);
    this.reply = { key: '', length: 0 };
    this.update({
      steps: over > 0 ? steps.slice(over) : steps,
      droppedSteps: this.state.droppedSteps + over,
      liveText: '',
      ...(chainStatus ? { chainStatus } : {}),
    });
  }

  /** A piece of the reply in progress: a repeat is skipped, a gap drops the partial text (its step will come). */
  private addText(data: Record<string, unknown>): void {
    if (data['kind'] !== 'text' || typeof data['text'] !== 'string' || typeof data['offset'] !== 'number') return;
    const key = `${String(data['activityId'])}#${String(data['attempt'])}`;
    if (key !== this.reply.key) this.reply = { key, length: 0 };
    const { offset, text } = data as { offset: number; text: string };
    if (offset > this.reply.length) {
      if (this.state.liveText !== '') this.update({ liveText: '' });
      return;
    }
    const fresh = text.slice(this.reply.length - offset);
    if (fresh === '') return;
    this.reply.length += fresh.length;
    const liveText = (offset === 0 && this.reply.length === fresh.length ? '' : this.state.liveText) + fresh;
    this.update({ liveText: liveText.slice(-this.client.limits.maxLiveTextChars) });
  }
}
