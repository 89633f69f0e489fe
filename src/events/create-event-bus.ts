import type { EventBus } from './event-bus';
import { EVENT_BUS_URL_FORMS } from './event-bus-url';
import { createHttpPublisher } from './http-publisher';
import { createMemoryBus } from './memory-bus';
import { createRedisBus } from './redis-bus';

export interface CreateEventBusOptions {
  /** For `http(s)://`: a bearer token whose identity has role `publisher` (env THOUGHTLINE_EVENTS_TOKEN). */
  token?: string;
  /** Where drops and connection trouble are reported, at most once a minute each. Default: stderr. */
  log?: (line: string) => void;
}

/**
 * The bus a URL names (env THOUGHTLINE_EVENTS): `redis://` or `rediss://` (Redis pub/sub, many
 * workers and servers), `http(s)://` (publish-only: a worker posting to a server's
 * `/v1/internal/events`), or `memory:` (one process).
 */
export function createEventBus(url: string, options: CreateEventBusOptions = {}): EventBus {
  if (url === 'memory:') return createMemoryBus();
  const scheme = /^([a-z]+):\/\//.exec(url)?.[1];
  if (scheme === 'redis' || scheme === 'rediss') return createRedisBus(url, options.log ? { log: options.log } : {});
  if (scheme === 'http' || scheme === 'https') {
    if (!options.token)
      throw new Error(
        `The event bus ${url} is a server: set THOUGHTLINE_EVENTS_TOKEN to a token whose identity has role "publisher".`,
      );
    return createHttpPublisher({ url, token: options.token, ...(options.log ? { log: options.log } : {}) });
  }
  throw new Error(`Unknown event bus "${url}": use ${EVENT_BUS_URL_FORMS}.`);
}
