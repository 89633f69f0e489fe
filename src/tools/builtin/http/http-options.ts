import type { ToolOverrides } from '../tool-overrides';
import type { HostResolver } from './address-guard';

/** Methods `http_fetch` knows; GET and HEAD are the read-only ones. */
export const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof KNOWN_METHODS)[number];
export const READ_METHODS: readonly HttpMethod[] = ['GET', 'HEAD'];

/** Request headers the model may set by default. Anything else (Host, Cookie, Authorization…) is refused. */
export const DEFAULT_ALLOW_HEADERS = [
  'accept',
  'accept-language',
  'content-type',
  'if-none-match',
  'if-modified-since',
  'user-agent',
] as const;

export interface HttpToolOptions {
  /** Hosts the tool may reach: exact names or `*.example.com`. Required; nothing else is reachable, redirects included. */
  allowHosts: readonly string[];
  /** Ports the tool may reach. Default 80 and 443. */
  allowPorts?: readonly number[];
  /** Methods the model may use. Default GET and HEAD. Any other one makes the tool need approval for calls using it. */
  methods?: readonly HttpMethod[];
  /** Request header names the model may set (lowercase). Default {@link DEFAULT_ALLOW_HEADERS}. */
  allowHeaders?: readonly string[];
  /**
   * Headers the tool adds itself, by exact host name, e.g. `{ 'api.example.com': { authorization: `Bearer ${key}` } }`.
   * The model never sees or sets them, they are not in the result, and a redirect to another host does not carry them.
   */
  hostHeaders?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Bytes of request body accepted. Default 64 KiB. */
  maxRequestBytes?: number;
  /** Bytes of response body read; the rest is cut, and the result says so. Default 256 KiB. */
  maxResponseBytes?: number;
  /** Redirects followed, each one checked like the first request. Default 5. */
  maxRedirects?: number;
  /** Limit of the whole call, redirects included. Default 15 s. */
  timeoutMs?: number;
  /** Let the tool reach loopback, private and other non-public addresses. Default false: only public unicast. */
  allowPrivate?: boolean;
  /** Non-public addresses or CIDR ranges the tool may reach anyway, e.g. `['10.1.2.0/24']`. Narrower than `allowPrivate`. */
  allowAddresses?: readonly string[];
  /** How host names are resolved (all addresses); default `dns.promises.lookup(host, { all: true })`. */
  resolveHost?: HostResolver;
  /** Changes to the tool's definition, e.g. `{ requiredRoles: ['ops'] }`. */
  overrides?: ToolOverrides;
}
