import { promises as dns } from 'node:dns';
import { FailureType } from '../../domain';
import {
  bareHost,
  resolvePinnedAddress,
  type HostResolver,
  type ResolvedAddress,
} from '../../tools/builtin/http/address-guard';
import { pinnedRequest } from '../../tools/builtin/http/pinned-request';
import { A2aBoundaryError } from './a2a-failure';
import type { A2aAllowList } from './a2a-allow-list';

/** Bytes of one A2A answer read; a task with its history and artifacts is far smaller. */
export const MAX_A2A_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Limit of one A2A request; following a task is many short requests, not one long one. */
export const A2A_REQUEST_TIMEOUT_MS = 30_000;

export interface GuardedFetchOptions {
  allow: A2aAllowList;
  /** Default `dns.promises.lookup(host, { all: true })`. */
  resolveHost?: HostResolver;
  /** Where bearer tokens are read, when each request is made; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  maxResponseBytes?: number;
  timeoutMs?: number;
}

const systemResolver: HostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * The `fetch` the A2A client uses: every request (the card, then the endpoint the card names) is
 * checked against the allow-list, its host's every address against the HTTP tool's SSRF guard,
 * and the connection pinned to the checked address. The origin's bearer token is added from the
 * worker's environment. Redirects are not followed. 401/403, 429/5xx and unreachable hosts throw
 * classified errors; other answers go back to the SDK, which reads JSON-RPC errors itself.
 */
export function createGuardedFetch(options: GuardedFetchOptions): typeof fetch {
  const { allow } = options;
  const resolveHost = options.resolveHost ?? systemResolver;
  const env = options.env ?? process.env;
  const maxResponseBytes = options.maxResponseBytes ?? MAX_A2A_RESPONSE_BYTES;
  const timeoutMs = options.timeoutMs ?? A2A_REQUEST_TIMEOUT_MS;
  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const refusal = allow.requestRefusal(url);
    if (refusal) throw new A2aBoundaryError(FailureType.RemoteAgentRefused, `refused ${url.origin}: ${refusal}.`);
    const pin = await resolveChecked(url, resolveHost, allow);
    const headers = plainHeaders(init?.headers);
    const tokenEnv = allow.bearerEnvFor(url.origin);
    if (tokenEnv) {
      const token = env[tokenEnv];
      if (!token)
        throw new A2aBoundaryError(
          FailureType.RemoteAgentUnauthorized,
          `the worker's A2A auth for ${url.origin} names the variable ${tokenEnv}, which is not set.`,
        );
      headers['authorization'] = `Bearer ${token}`;
    }
    const signal = init?.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    let raw;
    try {
      raw = await pinnedRequest({
        url,
        method: init?.method ?? 'GET',
        headers,
        ...(typeof init?.body === 'string' ? { body: init.body } : {}),
        pin,
        maxResponseBytes,
        signal,
      });
    } catch (err) {
      // The caller's own abort (activity cancellation) is not a failure of the host.
      if (init?.signal?.aborted) throw err;
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new A2aBoundaryError(FailureType.RemoteAgentUnreachable, `${url.origin} could not be reached (${code}).`, {
        cause: err,
      });
    }
    if (raw.truncated)
      throw new A2aBoundaryError(
        FailureType.RemoteAgentFailed,
        `${url.origin} answered with more than ${maxResponseBytes} bytes.`,
      );
    if (raw.status === 401 || raw.status === 403)
      throw new A2aBoundaryError(
        FailureType.RemoteAgentUnauthorized,
        `${url.origin} answered ${raw.status}: ${tokenEnv ? `the token in ${tokenEnv} was not accepted` : "it needs a token; name one in the worker's A2A auth settings"}.`,
      );
    if (raw.status === 429 || raw.status >= 500)
      throw new A2aBoundaryError(FailureType.RemoteAgentUnreachable, `${url.origin} answered ${raw.status}.`);
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(raw.headers))
      if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
    return new Response(NO_BODY.has(raw.status) ? null : new Uint8Array(raw.body), {
      status: raw.status,
      headers: responseHeaders,
    });
  };
  return guarded as typeof fetch;
}

/** Resolves the URL's host and checks every address (the HTTP tool's guard); the first is the one connected to. */
async function resolveChecked(url: URL, resolveHost: HostResolver, allow: A2aAllowList): Promise<ResolvedAddress> {
  const resolved = await resolvePinnedAddress(url, resolveHost, allow.addressesFor(bareHost(url.hostname).host));
  if (!('kind' in resolved)) return resolved;
  if (resolved.kind === 'unresolved') throw new A2aBoundaryError(FailureType.RemoteAgentUnreachable, resolved.message);
  throw new A2aBoundaryError(
    FailureType.RemoteAgentRefused,
    `refused ${resolved.host}: ${resolved.reason}; a non-public address is reached only when the A2A allow-list opens it for this host (the host as an IP literal, or allowAddresses["${resolved.host}"]).`,
  );
}

/** The SDK's headers as a plain lowercase record; an Authorization it set is dropped (only the worker's token goes). */
function plainHeaders(given: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(given).forEach((value, name) => {
    if (name !== 'authorization') out[name] = value;
  });
  return out;
}
