import { parseAddress, isReachable } from '../dev-server/probes/is-reachable';
import type { TemporalEndpoint } from './connection-settings';
import { probeTls, speaksTls, type TlsProbe } from './probe-tls';
import { TemporalConnectionError } from './temporal-connection-error';

/** gRPC status codes (grpc-js is the SDK's dependency, not ours). */
const status = {
  UNKNOWN: 2,
  DEADLINE_EXCEEDED: 4,
  PERMISSION_DENIED: 7,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

const CLIENT_PAIR = 'TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH';

/** The gRPC status in an error or its causes (the client wraps it in a ServiceError). */
function grpcCode(err: unknown): number | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number') return code;
  }
  return undefined;
}

/**
 * Credentials refused, as the client (a status) or the native bridge (only words) reports it.
 * PERMISSION_DENIED is left alone: it refuses one call (listing search attributes, say) to
 * credentials that were accepted, and says so itself.
 */
function isAuthFailure(err: unknown): boolean {
  if (grpcCode(err) === status.UNAUTHENTICATED) return true;
  return err instanceof Error && /valid authentication credentials/i.test(err.message);
}

/** Only a failure to get through is explained: a server that answered with another status has said its piece. */
function isTransportFailure(err: unknown): boolean {
  const code = grpcCode(err);
  return (
    code === undefined || code === status.UNAVAILABLE || code === status.DEADLINE_EXCEEDED || code === status.UNKNOWN
  );
}

function adviceForProbe(probe: TlsProbe): string | undefined {
  switch (probe.kind) {
    case 'client-certificate-required':
      return `it requires a client certificate (mTLS): set ${CLIENT_PAIR}`;
    case 'client-certificate-rejected':
      return (
        'it refused the client certificate: check that TEMPORAL_TLS_CLIENT_CERT_PATH and ' +
        'TEMPORAL_TLS_CLIENT_KEY_PATH name a pair signed by a CA the server trusts, and that it has not expired'
      );
    case 'unknown-server-ca':
      return (
        'its certificate is not signed by a CA this process trusts: set TEMPORAL_TLS_SERVER_CA_CERT_PATH to the CA ' +
        "certificate that signed the server's"
      );
    case 'server-certificate-expired':
      return 'its certificate has expired: the server needs a new one';
    case 'server-name-mismatch':
      return `its certificate is not for that name (${probe.detail}): set TEMPORAL_TLS_SERVER_NAME to a name in it`;
    case 'plaintext-server':
      return 'it does not speak TLS: set TEMPORAL_TLS=false (or fix TEMPORAL_ADDRESS)';
    case 'accepted':
    case 'inconclusive':
      return undefined;
    default: {
      const unhandled: never = probe;
      return unhandled;
    }
  }
}

/**
 * Why a connect to `endpoint` failed, as a TemporalConnectionError saying which TEMPORAL_*
 * variable to set; the original error (as `cause`) when nothing more can be said. Probes the
 * address with a TLS handshake of its own, because the SDK reports a refused client certificate,
 * an unknown CA and a plain server alike as "transport error" or "deadline". No message holds
 * a secret: the SDK's words are kept only as `cause`.
 */
export async function explainConnectFailure(endpoint: TemporalEndpoint, err: unknown): Promise<unknown> {
  const fail = (why: string): TemporalConnectionError =>
    new TemporalConnectionError(endpoint.address, `cannot connect to Temporal at ${endpoint.address}: ${why}`, {
      cause: err,
    });
  if (isAuthFailure(err))
    return fail(
      endpoint.apiKey !== undefined
        ? 'the server refused the API key: check TEMPORAL_API_KEY (current, not revoked, and allowed in this namespace)'
        : `the server requires credentials: set TEMPORAL_API_KEY (Temporal Cloud), or ${CLIENT_PAIR}`,
    );
  if (!isTransportFailure(err)) return err;
  let host: { host: string; port: number };
  try {
    host = parseAddress(endpoint.address);
  } catch {
    return fail('the address is not host:port: set TEMPORAL_ADDRESS to the frontend, e.g. temporal.example.com:7233');
  }
  if (!(await isReachable(endpoint.address, 2000)))
    return fail('nothing accepts connections there: check TEMPORAL_ADDRESS, and that the server runs');
  const tls = endpoint.tls ?? (endpoint.apiKey !== undefined ? true : undefined);
  if (!tls) {
    return (await speaksTls(host))
      ? fail(
          `the server expects TLS: set TEMPORAL_TLS=true, with ${CLIENT_PAIR} when it requires client ` +
            'certificates, or TEMPORAL_API_KEY for Temporal Cloud',
        )
      : err;
  }
  const advice = adviceForProbe(await probeTls(host, tls));
  return advice ? fail(advice) : err;
}
