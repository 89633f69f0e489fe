import { ApplicationFailure } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time';
import type { ModelProvider } from '../../../domain/model/model-provider';

/** A registry entry as the worker calls it: its provider (own URL, key, region) and its model id. */
export interface ModelEndpoint {
  provider: ModelProvider;
  model: string;
}

/** How long an endpoint is passed over after it failed, when the failure names no delay. */
export const DEFAULT_COOLDOWN_MS = 30_000;
/** The longest a failure's retry-after keeps an endpoint out of turn. */
const MAX_COOLDOWN_MS = 10 * 60_000;

/** The endpoint picked for one attempt; report how it went so the next pick can avoid it. */
export interface PickedEndpoint extends ModelEndpoint {
  name: string;
  failed(err: unknown): void;
}

/**
 * Spreads one model's calls across the endpoints a request names (registry entries of one group),
 * in turn; an endpoint that just failed sits out for its retry-after (else 30 s), so Temporal's
 * next attempt of the same call goes elsewhere. State is per worker and never enters history.
 */
export class EndpointBalancer {
  private turn = 0;
  private readonly coolUntil = new Map<string, number>();

  constructor(
    private readonly endpoints: Readonly<Record<string, ModelEndpoint>>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The next endpoint of `names` that this worker has and that is not cooling down (else the one that recovers first). */
  pick(names: readonly string[]): PickedEndpoint | undefined {
    const known = names.filter((n) => Object.hasOwn(this.endpoints, n));
    if (known.length === 0) return undefined;
    const start = this.turn++ % known.length;
    const order = [...known.slice(start), ...known.slice(0, start)];
    const at = this.now();
    const ready = order.find((n) => (this.coolUntil.get(n) ?? 0) <= at);
    const name =
      ready ?? order.reduce((a, b) => ((this.coolUntil.get(a) ?? 0) <= (this.coolUntil.get(b) ?? 0) ? a : b));
    const endpoint = this.endpoints[name]!;
    return {
      ...endpoint,
      name,
      failed: (err) => this.coolUntil.set(name, this.now() + cooldownOf(err)),
    };
  }

  /** The endpoints this worker can route to. */
  names(): string[] {
    return Object.keys(this.endpoints);
  }
}

function cooldownOf(err: unknown): number {
  const delay = err instanceof ApplicationFailure ? err.nextRetryDelay : undefined;
  return Math.min(delay ? msToNumber(delay) : DEFAULT_COOLDOWN_MS, MAX_COOLDOWN_MS);
}
