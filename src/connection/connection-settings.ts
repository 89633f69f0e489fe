import { inspect } from 'node:util';
import type { TLSConfig } from '@temporalio/client';

/** The address a local dev server listens on, used when no address is configured. */
export const LOCAL_ADDRESS = '127.0.0.1:7233';

/** Where a Temporal frontend is and how to reach it: the options Connection and NativeConnection share. */
export interface TemporalEndpoint {
  /** host:port of the gRPC frontend. */
  address: string;
  /** TLS settings; `true` is TLS with the system's root certificates; absent or false, plain. */
  tls?: TLSConfig | boolean;
  /** Sent as `authorization: Bearer <key>` on every call (Temporal Cloud). */
  apiKey?: string;
  /** More gRPC headers on every call (TEMPORAL_GRPC_META_*). */
  metadata?: Record<string, string>;
}

/** What code may pass to override the environment and the profile, field by field. */
export interface ConnectionOverrides {
  address?: string;
  namespace?: string;
  apiKey?: string;
  tls?: TLSConfig | boolean;
  metadata?: Record<string, string>;
}

/** The resolved connection: code options over TEMPORAL_* variables over the temporal.toml profile. */
export interface ConnectionSettings extends Omit<TemporalEndpoint, 'address'> {
  /** Absent when nothing names one: the CLI then finds or starts a local dev server. */
  address?: string;
  namespace: string;
  /** Where the address came from, for messages: 'TEMPORAL_ADDRESS', "profile 'prod' in FILE" or 'code'. */
  addressFrom?: string;
}

/** The endpoint of `settings`: its address, else the local dev server's, with its TLS and credentials. */
export function endpointOf(settings: ConnectionSettings): TemporalEndpoint {
  return hideSecrets({
    address: settings.address ?? LOCAL_ADDRESS,
    ...(settings.tls !== undefined ? { tls: settings.tls } : {}),
    ...(settings.apiKey !== undefined ? { apiKey: settings.apiKey } : {}),
    ...(settings.metadata !== undefined ? { metadata: settings.metadata } : {}),
  });
}

/** How an endpoint is secured, in words safe to log: never a key or a certificate. */
export function securityOf(endpoint: Pick<TemporalEndpoint, 'tls' | 'apiKey'>): string {
  const tls = endpoint.tls ?? (endpoint.apiKey !== undefined ? true : undefined);
  if (!tls) return endpoint.apiKey !== undefined ? 'without TLS, with an API key' : 'without TLS';
  const mtls = typeof tls === 'object' && tls.clientCertPair !== undefined;
  return `over TLS${mtls ? ' with a client certificate' : ''}${endpoint.apiKey !== undefined ? ' with an API key' : ''}`;
}

const HIDDEN = '[hidden]';

/** A copy fit to print: the API key, the client key and header values replaced. */
function printable<T extends Partial<TemporalEndpoint>>(value: T): Record<string, unknown> {
  const { apiKey, metadata, tls, ...rest } = value;
  return {
    ...rest,
    ...(tls !== undefined ? { tls: typeof tls === 'object' ? printableTls(tls) : tls } : {}),
    ...(apiKey !== undefined ? { apiKey: HIDDEN } : {}),
    ...(metadata !== undefined ? { metadata: Object.fromEntries(Object.keys(metadata).map((k) => [k, HIDDEN])) } : {}),
  };
}

function printableTls(tls: TLSConfig): Record<string, unknown> {
  return {
    ...(tls.serverNameOverride !== undefined ? { serverNameOverride: tls.serverNameOverride } : {}),
    ...(tls.serverRootCACertificate !== undefined ? { serverRootCACertificate: '[certificate]' } : {}),
    ...(tls.clientCertPair !== undefined ? { clientCertPair: { crt: '[certificate]', key: HIDDEN } } : {}),
  };
}

/**
 * Freezes `value` and makes `console.log`, `util.inspect` and `JSON.stringify` show it without
 * its secrets, so a settings object logged by mistake leaks nothing. Spreading it still copies
 * every field: the SDK's connect functions need them.
 */
export function hideSecrets<T extends Partial<TemporalEndpoint>>(value: T): Readonly<T> {
  Object.defineProperties(value, {
    toJSON: { value: () => printable(value), enumerable: false },
    [inspect.custom]: {
      value: (_depth: number, options: object) => `${inspect(printable(value), options)}`,
      enumerable: false,
    },
  });
  return Object.freeze(value);
}
