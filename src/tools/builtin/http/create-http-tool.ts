import { promises as dns } from 'node:dns';
import { z } from 'zod';
import type { ApprovalPolicy } from '../../../domain';
import { defineTool } from '../../define-tool';
import { ToolError } from '../../tool-error';
import {
  addressPolicy,
  resolvePinnedAddress,
  type AddressPolicy,
  type HostResolver,
  type ResolvedAddress,
} from './address-guard';
import { hostAllowList, normalHost, type HostAllowList } from './host-allow-list';
import {
  DEFAULT_ALLOW_HEADERS,
  KNOWN_METHODS,
  READ_METHODS,
  type HttpMethod,
  type HttpToolOptions,
} from './http-options';
import { pinnedRequest } from './pinned-request';
import { refuse } from '../refuse';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Response headers shown to the model; others (Set-Cookie above all) are not. */
const SHOWN_HEADERS = ['content-type', 'content-length', 'last-modified', 'etag', 'cache-control', 'location'];

export interface HttpFetchResult {
  /** The last URL fetched (after redirects). */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** The body as UTF-8 text, cut at `maxResponseBytes`. */
  body: string;
  truncated: boolean;
  /** Each URL redirected to, in order. */
  redirects: string[];
}

const positive = (name: string, value: number | undefined, fallback: number): number => {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new RangeError(`createHttpTool: ${name} must be a positive integer, got ${String(value)}.`);
  return n;
};

const systemResolver: HostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/**
 * `http_fetch`: one HTTP request to an allowed host. Checked on every hop (first request and each
 * redirect): scheme http/https, no credentials in the URL, host on the allow-list, port allowed,
 * then every address the host resolves to is public unicast (the SSRF guard); the connection then
 * goes to the checked address only, so a DNS answer that changes afterwards is never used.
 */
export function createHttpTool(options: HttpToolOptions) {
  const hosts = hostAllowList(options.allowHosts);
  const ports = new Set(options.allowPorts ?? [80, 443]);
  for (const port of ports)
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new RangeError(`createHttpTool: port ${String(port)} is out of range.`);
  const methods = [...new Set(options.methods ?? READ_METHODS)];
  for (const m of methods)
    if (!(KNOWN_METHODS as readonly string[]).includes(m))
      throw new TypeError(`createHttpTool: unknown method "${String(m)}"; use ${KNOWN_METHODS.join(', ')}.`);
  if (methods.length === 0) throw new TypeError('createHttpTool: methods must list at least one method.');
  const allowHeaders = new Set((options.allowHeaders ?? DEFAULT_ALLOW_HEADERS).map((h) => h.toLowerCase()));
  const hostHeaders = operatorHeaders(options.hostHeaders ?? {});
  const maxRequestBytes = positive('maxRequestBytes', options.maxRequestBytes, 64 * 1024);
  const maxResponseBytes = positive('maxResponseBytes', options.maxResponseBytes, 256 * 1024);
  const maxRedirects = options.maxRedirects ?? 5;
  if (!Number.isSafeInteger(maxRedirects) || maxRedirects < 0)
    throw new RangeError('createHttpTool: maxRedirects must be a non-negative integer.');
  const timeoutMs = positive('timeoutMs', options.timeoutMs, 15_000);
  const addresses = addressPolicy(options.allowPrivate, options.allowAddresses);
  const resolveHost = options.resolveHost ?? systemResolver;

  const writeMethods = methods.filter((m) => !READ_METHODS.includes(m));
  // The schema's enum is case-sensitive, so an `equals` rule over the write methods sees every one.
  const approval: ApprovalPolicy = writeMethods.length
    ? { anyOf: [{ when: 'equals', field: 'method', values: writeMethods }] }
    : 'never';

  return defineTool({
    name: 'http_fetch',
    type: 'external',
    description: `Makes an HTTP request to an allowed host (${hosts.entries.join(', ')}) and returns the status, main headers and up to ${maxResponseBytes} bytes of the body as text. Methods: ${methods.join(', ')}.`,
    input: z.object({
      url: z.string().min(1).max(8_192).describe('Absolute http or https URL'),
      method: z.enum(methods as [HttpMethod, ...HttpMethod[]]).default(methods.includes('GET') ? 'GET' : methods[0]!),
      headers: z
        .record(z.string(), z.string().max(8_192))
        .default({})
        .describe(`Request headers; allowed: ${[...allowHeaders].join(', ')}`),
      body: z.string().optional().describe('Request body (not for GET or HEAD)'),
    }),
    effects: writeMethods.length === 0 ? 'none' : 'idempotent',
    approval,
    timeoutMs: timeoutMs + 5_000,
    summaryTemplate: '{method} {url}: {status}',
    ...options.overrides,
    async execute(args, context): Promise<HttpFetchResult> {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(args.headers)) {
        if (!allowHeaders.has(name.toLowerCase()))
          throw refuse(`Header "${name}" is not allowed; allowed: ${[...allowHeaders].join(', ')}.`);
        if (/[\r\n\0]/.test(value)) throw refuse(`Header "${name}" contains a line break or NUL.`);
        headers[name.toLowerCase()] = value;
      }
      let method: string = args.method;
      let body = args.body;
      if (body !== undefined && READ_METHODS.includes(args.method))
        throw refuse(`${args.method} requests take no body.`);
      if (body !== undefined && Buffer.byteLength(body) > maxRequestBytes)
        throw refuse(`The request body is ${Buffer.byteLength(body)} bytes; at most ${maxRequestBytes} are sent.`);

      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
      const redirects: string[] = [];
      let url = checkUrl(args.url, hosts, ports);
      for (;;) {
        const pin = await resolveChecked(url, resolveHost, addresses);
        const sent = { ...headers, ...hostHeaders.get(url.hostname) };
        const res = await send({
          url,
          method,
          headers: sent,
          pin,
          signal,
          maxResponseBytes,
          ...(body === undefined ? {} : { body }),
        });
        const location = res.headers.location;
        // A redirect that would repeat a write (307/308 after a POST) is handed back, not followed: the approval named the first URL.
        const repeatsWrite =
          !READ_METHODS.includes(method as HttpMethod) &&
          res.status !== 303 &&
          !((res.status === 301 || res.status === 302) && method === 'POST');
        if (!REDIRECTS.has(res.status) || typeof location !== 'string' || repeatsWrite) {
          return {
            url: url.href,
            status: res.status,
            headers: shownHeaders(res.headers),
            body: res.body.toString('utf8'),
            truncated: res.truncated,
            redirects,
          };
        }
        if (redirects.length === maxRedirects)
          throw refuse(`Stopped after ${maxRedirects} redirects (the next one was to ${location}).`);
        url = checkUrl(new URL(location, url).href, hosts, ports, 'A redirect');
        redirects.push(url.href);
        // 303, and 301/302 after a POST, turn into a GET without a body, as browsers do.
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = undefined;
          delete headers['content-type'];
        }
      }
    },
  });
}

/** The operator's per-host headers, keyed by the URL parser's form of each host; lowercase names, no line breaks. */
function operatorHeaders(
  byHost: Readonly<Record<string, Readonly<Record<string, string>>>>,
): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const [host, headers] of Object.entries(byHost)) {
    const clean: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== 'string' || /[\r\n\0]/.test(value) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
        throw new TypeError(`createHttpTool: hostHeaders["${host}"] has an invalid header "${name}".`);
      }
      clean[name.toLowerCase()] = value;
    }
    out.set(normalHost(host), clean);
  }
  return out;
}

/** Parses a URL and checks scheme, credentials, host and port. */
function checkUrl(text: string, hosts: HostAllowList, ports: ReadonlySet<number>, what = 'The URL'): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse(`${what} is not a valid absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse(`${what} uses ${url.protocol}; only http and https are allowed.`);
  if (url.username || url.password) throw refuse(`${what} carries credentials; they are not allowed in URLs.`);
  if (!hosts.allows(url.hostname))
    throw refuse(`${what} goes to ${url.hostname}, which is not an allowed host (${hosts.entries.join(', ')}).`);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (!ports.has(port)) throw refuse(`${what} uses port ${port}, which is not allowed (${[...ports].join(', ')}).`);
  return url;
}

/** Resolves the URL's host and checks every address; returns the first, which the connection is pinned to. */
async function resolveChecked(url: URL, resolveHost: HostResolver, policy: AddressPolicy): Promise<ResolvedAddress> {
  const resolved = await resolvePinnedAddress(url, resolveHost, policy);
  if (!('kind' in resolved)) return resolved;
  if (resolved.kind === 'unresolved') throw refuse(resolved.message);
  throw refuse(`${resolved.host} is refused: ${resolved.reason}; only public addresses may be reached.`);
}

async function send(request: Parameters<typeof pinnedRequest>[0]) {
  try {
    return await pinnedRequest(request);
  } catch (err) {
    if (request.signal.aborted)
      throw new ToolError(`The request to ${request.url.host} was cancelled or timed out.`, { cause: err });
    throw new ToolError(
      `The request to ${request.url.host} failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`,
      { cause: err },
    );
  }
}

function shownHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const name of SHOWN_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') shown[name] = value;
  }
  return shown;
}
