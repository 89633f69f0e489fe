import net from 'node:net';
import tls from 'node:tls';
import type { TLSConfig } from '@temporalio/client';

/** What a TLS handshake with a frontend showed, in the terms the advice needs. */
export type TlsProbe =
  | { kind: 'accepted' }
  | { kind: 'plaintext-server' }
  | { kind: 'client-certificate-required' }
  | { kind: 'client-certificate-rejected' }
  | { kind: 'unknown-server-ca' }
  | { kind: 'server-certificate-expired' }
  | { kind: 'server-name-mismatch'; detail: string }
  | { kind: 'inconclusive'; detail: string };

const PROBE_MS = 3000;

/** OpenSSL's and Node's codes for each finding (TLS 1.3 names first, then TLS 1.2's). */
const PLAINTEXT = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'EPROTO']);
const CERT_REQUIRED = new Set(['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE']);
const CERT_REJECTED = new Set([
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_TLSV1_ALERT_DECRYPT_ERROR',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
]);
const UNKNOWN_CA = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

function classify(err: NodeJS.ErrnoException, sentCertificate: boolean, handshakeDone: boolean): TlsProbe {
  const code = err.code ?? '';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return { kind: 'server-name-mismatch', detail: err.message };
  if (code === 'CERT_HAS_EXPIRED') return { kind: 'server-certificate-expired' };
  if (UNKNOWN_CA.has(code)) return { kind: 'unknown-server-ca' };
  if (CERT_REQUIRED.has(code) && !sentCertificate) return { kind: 'client-certificate-required' };
  if ((CERT_REQUIRED.has(code) || CERT_REJECTED.has(code)) && sentCertificate)
    return { kind: 'client-certificate-rejected' };
  if (PLAINTEXT.has(code) && !handshakeDone) return { kind: 'plaintext-server' };
  return { kind: 'inconclusive', detail: code || err.message };
}

/**
 * One TLS handshake with `address`, as the SDK would make it (same CA, client pair, server name,
 * ALPN h2), used only to explain a failed connect: the SDK's own errors say "transport error" or
 * "deadline" for all of these. Waits for the server's first HTTP/2 frame, because under TLS 1.3
 * a server refuses a client certificate only after the client thinks the handshake is done.
 * Never throws.
 */
export function probeTls(address: { host: string; port: number }, config: TLSConfig | true): Promise<TlsProbe> {
  const c: TLSConfig = config === true ? {} : config;
  const servername = c.serverNameOverride ?? (net.isIP(address.host) ? undefined : address.host);
  return new Promise((resolve) => {
    let handshakeDone = false;
    const socket = tls.connect({
      host: address.host,
      port: address.port,
      ALPNProtocols: ['h2'],
      ...(servername ? { servername } : {}),
      ...(c.serverRootCACertificate ? { ca: Buffer.from(c.serverRootCACertificate) } : {}),
      ...(c.clientCertPair ? { cert: Buffer.from(c.clientCertPair.crt), key: Buffer.from(c.clientCertPair.key) } : {}),
    });
    const finish = (result: TlsProbe): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(PROBE_MS, () => finish({ kind: 'inconclusive', detail: 'no answer' }));
    socket.once('secureConnect', () => {
      handshakeDone = true;
      // The client preface: an HTTP/2 server answers it with its SETTINGS frame.
      socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    });
    socket.once('data', () => finish({ kind: 'accepted' }));
    socket.once('error', (err) => finish(classify(err, c.clientCertPair !== undefined, handshakeDone)));
    socket.once('close', () =>
      finish(
        handshakeDone && c.clientCertPair
          ? { kind: 'client-certificate-rejected' }
          : { kind: 'inconclusive', detail: 'closed' },
      ),
    );
  });
}

/** Whether `address` completes a TLS handshake (any certificate): a plain client's failure then means "use TLS". */
export function speaksTls(address: { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: address.host,
      port: address.port,
      rejectUnauthorized: false,
      ALPNProtocols: ['h2'],
    });
    const finish = (yes: boolean): void => {
      socket.destroy();
      resolve(yes);
    };
    socket.setTimeout(PROBE_MS, () => finish(false));
    socket.once('secureConnect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
