import { addressPolicy, bareHost, type AddressPolicy } from '../../tools/builtin/http/address-guard';
import { ALLOW_ADDRESSES_SHAPE, InvalidA2aSettingsError, type A2aSettings } from './a2a-settings';

/** Where a worker may send A2A requests, compiled once from its settings. */
export interface A2aAllowList {
  /** Why this card URL may not be named, or undefined when it may. */
  cardRefusal(cardUrl: string): string | undefined;
  /** Why a request to this URL (the card, the agent's JSON-RPC endpoint) may not go, or undefined. */
  requestRefusal(url: URL): string | undefined;
  /**
   * The non-public addresses opened for one host (a URL's hostname, IPv6 without brackets): an IP
   * literal on the list opens itself, `allowAddresses[host]` what that name may resolve to; no
   * other host gets them, so a name on the list that resolves to another entry's address is refused.
   */
  addressesFor(host: string): AddressPolicy;
  /** The environment variable holding the bearer token for this origin, if any. */
  bearerEnvFor(origin: string): string | undefined;
  /** The entries as given, for messages. */
  readonly entries: readonly string[];
}

/** The URL parser's form of an entry; only http(s), no credentials. */
function entryUrl(entry: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new InvalidA2aSettingsError(`${what} "${entry}" is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidA2aSettingsError(`${what} "${entry}" uses ${url.protocol}; only http and https are allowed.`);
  if (url.username || url.password) throw new InvalidA2aSettingsError(`${what} "${entry}" carries credentials.`);
  return url;
}

/** An entry of just an origin (no path beyond `/`, no query) allows every card there. */
const isOriginOnly = (url: URL): boolean => url.pathname === '/' && !url.search && !url.hash;

/**
 * Fails closed: no settings, or an empty list, refuses every card. An origin entry allows any card
 * and endpoint on that origin; a card entry allows that card exactly, and requests to its origin
 * (where its JSON-RPC endpoint is). Settings that cannot be read stop the worker from starting.
 */
export function a2aAllowList(settings: A2aSettings | undefined): A2aAllowList {
  const entries = settings?.allow ?? [];
  const origins = new Set<string>();
  const anyCard = new Set<string>();
  const cards = new Set<string>();
  const opened = new Map<string, string[]>();
  const hosts = new Set<string>();
  for (const entry of entries) {
    const url = entryUrl(entry, 'The A2A allow-list entry');
    origins.add(url.origin);
    if (isOriginOnly(url)) anyCard.add(url.origin);
    else cards.add(url.href);
    const { host, literal } = bareHost(url.hostname);
    hosts.add(host);
    if (literal) opened.set(host, [host]);
  }
  const bearers = new Map<string, string>();
  for (const [origin, auth] of Object.entries(settings?.auth ?? {})) {
    const url = entryUrl(origin, 'The A2A auth origin');
    if (!isOriginOnly(url)) throw new InvalidA2aSettingsError(`The A2A auth key "${origin}" must be an origin only.`);
    bearers.set(url.origin, auth.bearerEnv);
  }
  const given: unknown = settings?.allowAddresses;
  if (Array.isArray(given)) throw new InvalidA2aSettingsError(ALLOW_ADDRESSES_SHAPE);
  for (const [name, ranges] of Object.entries(settings?.allowAddresses ?? {})) {
    const host = bareHost(name.toLowerCase()).host;
    if (!hosts.has(host))
      throw new InvalidA2aSettingsError(
        `A2A allowAddresses names ${name}, which is no host on the allow-list (${[...hosts].join(', ') || 'none'}).`,
      );
    opened.set(host, [...(opened.get(host) ?? []), ...ranges]);
  }
  const policies = new Map<string, AddressPolicy>();
  for (const [host, ranges] of opened) {
    try {
      policies.set(host, addressPolicy(false, ranges));
    } catch (err) {
      throw new InvalidA2aSettingsError(
        (err as Error).message.replace('createHttpTool: allowAddresses', `A2A allowAddresses for ${host}:`),
      );
    }
  }
  const nothingOpened = addressPolicy(false, []);
  const shown = entries.length ? entries.join(', ') : 'none';
  return {
    entries: Object.freeze([...entries]),
    addressesFor: (host) => policies.get(host.toLowerCase()) ?? nothingOpened,
    bearerEnvFor: (origin) => bearers.get(origin),
    cardRefusal(cardUrl) {
      if (entries.length === 0)
        return `this worker has no A2A allow-list, so it calls no remote agent (start it with an allow-list: thoughtline worker --a2a FILE)`;
      let url: URL;
      try {
        url = entryUrl(cardUrl, 'The card URL');
      } catch (err) {
        return (err as Error).message;
      }
      if (anyCard.has(url.origin) || cards.has(url.href)) return undefined;
      return `the card ${url.href} is not on this worker's A2A allow-list (${shown})`;
    },
    requestRefusal(url) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} is not http or https`;
      if (url.username || url.password) return 'the URL carries credentials';
      if (!origins.has(url.origin)) return `${url.origin} is not an origin on this worker's A2A allow-list (${shown})`;
      return undefined;
    },
  };
}
