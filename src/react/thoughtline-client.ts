import { DEFAULT_LIMITS, type ClientLimits } from './client-limits';
import { RunFeed } from './run-feed';
import { ThoughtlineApiError } from './thoughtline-api-error';

export interface ThoughtlineClientOptions {
  /** Where `thoughtline serve` answers, e.g. `https://agents.example.com`; '' for this page's origin. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`; without one, only public routes answer. */
  token?: string;
  limits?: Partial<ClientLimits>;
}

/**
 * What the hooks share under one provider: the server's address and token, and one event feed per
 * run watched (however many hooks watch it), closed when the last one lets go.
 */
export class ThoughtlineClient {
  readonly limits: ClientLimits;
  private readonly feeds = new Map<string, { feed: RunFeed; users: number }>();

  constructor(private readonly options: ThoughtlineClientOptions) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
  }

  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}), ...extra };
  }

  /** A JSON request; a non-2xx answer or no answer rejects with ThoughtlineApiError. */
  async request<T>(method: string, path: string, options: { body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.url(path), {
        method,
        headers: this.headers(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (err) {
      if (options.signal?.aborted) throw err;
      throw new ThoughtlineApiError(0, 'unreachable', `No answer from ${this.url(path)}.`);
    }
    if (!response.ok) throw await ThoughtlineApiError.of(response);
    return (await response.json()) as T;
  }

  /** The run's shared feed; call the returned function to let go of it. */
  watch(runId: string): { feed: RunFeed; release(): void } {
    let entry = this.feeds.get(runId);
    if (!entry) {
      entry = { feed: new RunFeed(this, runId), users: 0 };
      this.feeds.set(runId, entry);
    }
    entry.users += 1;
    const held = entry;
    let released = false;
    return {
      feed: held.feed,
      release: () => {
        if (released) return;
        released = true;
        held.users -= 1;
        if (held.users > 0) return;
        held.feed.close();
        if (this.feeds.get(runId) === held) this.feeds.delete(runId);
      },
    };
  }
}
