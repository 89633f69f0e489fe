import { RunStream, type RunStreamDeps, type StreamListener } from './run-stream';
import type { Identity } from '../auth/identity';
import { personKey } from '../auth/person-key';

/** Streams held at most: by the whole server, by one identity, by one tenant (tenant-less callers count as one). */
export interface WatcherCaps {
  server: number;
  perIdentity: number;
  perTenant: number;
}

/** Who holds a stream, for the per-identity and per-tenant counts. */
export interface WatcherOwner {
  id: string;
  tenant?: string;
  via?: Identity['via'];
}

/**
 * The server's watched runs: one `RunStream` per run with at least one watcher, made when the
 * first joins and closed when the last leaves; and the count of watchers, held under caps for
 * the server, each identity and each tenant, so no one token or tenant takes every stream.
 */
export class RunStreamHub {
  private readonly streams = new Map<string, RunStream>();
  private watchers = 0;
  private readonly byIdentity = new Map<string, number>();
  private readonly byTenant = new Map<string, number>();
  private readonly owners = new WeakMap<StreamListener, { identity: string; tenant: string }>();
  /** Streams closed when their last watcher left, until their Temporal calls settle. */
  private readonly draining = new Set<Promise<void>>();

  constructor(
    private readonly deps: RunStreamDeps,
    private readonly caps: WatcherCaps,
  ) {}

  get watcherCount(): number {
    return this.watchers;
  }

  get runCount(): number {
    return this.streams.size;
  }

  /** Which cap a new stream for `owner` would pass, or undefined when there is room. */
  fullFor(owner: WatcherOwner): 'server' | 'identity' | 'tenant' | undefined {
    if (this.watchers >= this.caps.server) return 'server';
    if ((this.byIdentity.get(identityKey(owner)) ?? 0) >= this.caps.perIdentity) return 'identity';
    if ((this.byTenant.get(tenantKey(owner)) ?? 0) >= this.caps.perTenant) return 'tenant';
    return undefined;
  }

  /** Attaches the listener `make` builds for the run's stream (made now if the run had none). */
  join<L extends StreamListener>(
    workflowId: string,
    owner: WatcherOwner,
    make: (stream: RunStream) => L,
  ): { stream: RunStream; listener: L } {
    let stream = this.streams.get(workflowId);
    if (!stream) {
      stream = new RunStream(workflowId, this.deps);
      this.streams.set(workflowId, stream);
    }
    const listener = make(stream);
    stream.attach(listener);
    this.watchers += 1;
    const keys = { identity: identityKey(owner), tenant: tenantKey(owner) };
    this.owners.set(listener, keys);
    bump(this.byIdentity, keys.identity, 1);
    bump(this.byTenant, keys.tenant, 1);
    return { stream, listener };
  }

  leave(stream: RunStream, listener: StreamListener): void {
    const before = stream.size;
    stream.detach(listener);
    if (stream.size === before) return;
    this.watchers -= 1;
    const keys = this.owners.get(listener);
    if (keys) {
      bump(this.byIdentity, keys.identity, -1);
      bump(this.byTenant, keys.tenant, -1);
    }
    if (stream.size === 0 && this.streams.get(stream.workflowId) === stream) {
      this.streams.delete(stream.workflowId);
      this.drain(stream);
    }
  }

  /** Closes every stream; resolves once none has a Temporal call under way. */
  async close(): Promise<void> {
    for (const stream of this.streams.values()) this.drain(stream);
    this.streams.clear();
    this.watchers = 0;
    this.byIdentity.clear();
    this.byTenant.clear();
    await Promise.all([...this.draining]);
  }

  private drain(stream: RunStream): void {
    const closing = stream.close();
    this.draining.add(closing);
    void closing.then(() => this.draining.delete(closing));
  }
}

/** An identity is a person (personKey): the same id in two tenants, or from two sign-in sources, is two people. */
const identityKey = (owner: WatcherOwner): string => personKey(owner);
const tenantKey = (owner: WatcherOwner): string => owner.tenant ?? '';

function bump(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}
