import fs from 'node:fs';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import type { TestCertificates } from './test-certificates';

/** One gRPC call a proxy frontend forwarded, as it arrived. */
export interface SeenCall {
  method: string;
  authorization?: string;
}

/**
 * A Temporal frontend that demands TLS: what the connection tests dial. Either a TLS-terminating
 * gRPC proxy this process runs in front of the suite's dev server (`temporal server start-dev`
 * 1.9 has no TLS flags), or a cluster with frontend mTLS named by THOUGHTLINE_TEST_MTLS_* (see
 * mtlsFrontend). The certificate fields are PEM file paths.
 */
export interface SecuredFrontend {
  address: string;
  namespace: string;
  caCert: string;
  /** A name in the frontend's certificate. */
  serverName: string;
  /** A client pair the frontend accepts. */
  clientCert: string;
  clientKey: string;
  /** Proxy only: the calls it forwarded and the handshakes it refused, to show where traffic went. */
  seen?: { calls: SeenCall[]; refusedHandshakes: number };
  stop(): Promise<void>;
}

export interface ProxyOptions {
  certs: TestCertificates;
  /** Refuse handshakes without a client certificate signed by the test CA (frontend mTLS). */
  requireClientCertificate: boolean;
  /** Answer UNAUTHENTICATED, as Temporal Cloud does, to calls without `authorization: Bearer <apiKey>`. */
  apiKey?: string;
}

const GRPC_UNAUTHENTICATED = '16';

/**
 * Starts a TLS (HTTP/2, ALPN h2) frontend on a free port of 127.0.0.1 that forwards every gRPC
 * call, headers, body and trailers, to the suite's dev server: the handshake, the client
 * certificate check and the API key check are real; the Temporal behind them is too.
 */
export async function startTlsProxy(options: ProxyOptions): Promise<SecuredFrontend> {
  const { certs } = options;
  const seen = { calls: [] as SeenCall[], refusedHandshakes: 0 };
  const upstreamUrl = `http://${inject('temporalAddress')}`;
  let upstream: http2.ClientHttp2Session | undefined;
  // One session to the dev server, dialled again should it close (a GOAWAY, the server restarting).
  const session = (): http2.ClientHttp2Session => {
    if (!upstream || upstream.closed || upstream.destroyed) {
      upstream = http2.connect(upstreamUrl);
      upstream.on('error', () => {});
    }
    return upstream;
  };
  const server = http2.createSecureServer({
    key: fs.readFileSync(certs.serverKey),
    cert: fs.readFileSync(certs.serverCert),
    ca: fs.readFileSync(certs.caCert),
    requestCert: options.requireClientCertificate,
    rejectUnauthorized: options.requireClientCertificate,
    ALPNProtocols: ['h2'],
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  server.on('tlsClientError', () => seen.refusedHandshakes++);
  server.on('stream', (stream, headers) => {
    const method = String(headers[':path']);
    const authorization = headers.authorization;
    seen.calls.push({ method, ...(typeof authorization === 'string' ? { authorization } : {}) });
    if (options.apiKey !== undefined && authorization !== `Bearer ${options.apiKey}`) {
      stream.respond(
        {
          ':status': 200,
          'content-type': 'application/grpc',
          'grpc-status': GRPC_UNAUTHENTICATED,
          'grpc-message': 'Request unauthorized.',
        },
        { endStream: true },
      );
      return;
    }
    forward(stream, headers, session());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    namespace: inject('temporalNamespace'),
    caCert: certs.caCert,
    serverName: 'localhost',
    clientCert: certs.clientCert,
    clientKey: certs.clientKey,
    seen,
    stop: async () => {
      for (const s of sessions) s.destroy();
      upstream?.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One call to the dev server and its answer back: body both ways, then the trailers gRPC puts its status in. */
function forward(
  stream: http2.ServerHttp2Stream,
  headers: http2.IncomingHttpHeaders,
  upstream: http2.ClientHttp2Session,
): void {
  const request: http2.OutgoingHttpHeaders = { ':method': 'POST', ':path': headers[':path'] };
  for (const [name, value] of Object.entries(headers)) if (!name.startsWith(':')) request[name] = value;
  const call = upstream.request(request);
  stream.pipe(call);
  let trailers: http2.IncomingHttpHeaders = {};
  call.on('trailers', (t) => (trailers = t));
  call.on('response', (response) => {
    // The client gave up meanwhile (a worker's poll cancelled at shutdown): nobody to answer.
    if (stream.destroyed || stream.closed) return;
    // A "trailers-only" answer (an error status at once) carries grpc-status in its headers and no body.
    if ('grpc-status' in response) {
      stream.respond(response, { endStream: true });
      return;
    }
    stream.respond(response, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers(trailers));
    call.pipe(stream);
  });
  call.on('error', () => stream.destroy());
  stream.on('error', () => call.destroy());
  stream.on('close', () => {
    if (!call.closed) call.close(http2.constants.NGHTTP2_CANCEL);
  });
}

/**
 * The mTLS frontend the tests use: the cluster named by THOUGHTLINE_TEST_MTLS_ADDRESS when set
 * (with THOUGHTLINE_TEST_MTLS_CA, _CERT, _KEY, _SERVER_NAME and _NAMESPACE: a cluster whose
 * frontend requires client certificates; `npm run test:cluster` sets them from what
 * `npm run cluster -- start --mtls` printed), else a proxy in front of the suite's dev server.
 */
export async function mtlsFrontend(certs: TestCertificates): Promise<SecuredFrontend> {
  const address = process.env.THOUGHTLINE_TEST_MTLS_ADDRESS;
  if (!address) return startTlsProxy({ certs, requireClientCertificate: true });
  const need = (name: string): string => {
    const value = process.env[`THOUGHTLINE_TEST_MTLS_${name}`];
    if (!value) throw new Error(`THOUGHTLINE_TEST_MTLS_ADDRESS is set: set THOUGHTLINE_TEST_MTLS_${name} too`);
    return value;
  };
  return {
    address,
    namespace: process.env.THOUGHTLINE_TEST_MTLS_NAMESPACE || 'default',
    caCert: need('CA'),
    serverName: need('SERVER_NAME'),
    clientCert: need('CERT'),
    clientKey: need('KEY'),
    stop: async () => {},
  };
}
