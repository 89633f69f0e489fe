import dns from 'node:dns/promises';
import {
  addressPolicy,
  addressRefusal,
  bareHost,
  type ResolvedAddress,
} from '../../../tools/builtin/http/address-guard';
import type { HostAllowList } from '../../../tools/builtin/http/host-allow-list';
import { pinnedRequest } from '../../../tools/builtin/http/pinned-request';

/** How long one webhook delivery may take. */
const POST_TIMEOUT_MS = 5_000;
/** What is read of a webhook's answer (nothing is done with it). */
const MAX_ANSWER_BYTES = 4_096;

/** Public addresses only: private, loopback, link-local (cloud metadata) and the rest are refused. */
const PUBLIC_ONLY = addressPolicy(false);

/**
 * Why `url` may not receive push notifications, or undefined when it may: http(s) only, its host
 * on the allow-list. Checked when a config is made and again before every delivery.
 */
export function webhookRefusal(url: string, allow: HostAllowList): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'The webhook URL is not a URL.';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'The webhook URL must be http(s).';
  if (parsed.username || parsed.password) return 'The webhook URL must not carry credentials; use the config token.';
  if (!allow.allows(parsed.hostname))
    return `The webhook host ${parsed.hostname} is not on this server's allow-list (THOUGHTLINE_A2A_PUSH_ALLOW).`;
  return undefined;
}

/**
 * The address to connect to: an IP literal the allow-list names is taken as the operator's
 * choice; a host name must resolve to public addresses only (the HTTP tool's SSRF guard), and the
 * connection is pinned to the address checked, so DNS cannot change it in between.
 */
async function checkedAddress(url: URL): Promise<ResolvedAddress> {
  const { host, literal } = bareHost(url.hostname);
  if (literal) return { address: host, family: literal === 6 ? 6 : 4 };
  const addresses = await dns.lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`${host} resolved to no address`);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, PUBLIC_ONLY);
    if (refusal) throw new Error(`${host} is refused: ${refusal}`);
  }
  const [first] = addresses;
  return { address: first!.address, family: first!.family === 6 ? 6 : 4 };
}

/** POSTs one notification; resolves to the HTTP status, or throws with why (never the headers sent). */
export async function postWebhook(
  url: string,
  allow: HostAllowList,
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  const refusal = webhookRefusal(url, allow);
  if (refusal) throw new Error(refusal);
  const target = new URL(url);
  const pin = await checkedAddress(target);
  const response = await pinnedRequest({
    url: target,
    method: 'POST',
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    body,
    pin,
    maxResponseBytes: MAX_ANSWER_BYTES,
    signal: AbortSignal.timeout(POST_TIMEOUT_MS),
  });
  return response.status;
}
