import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { z } from 'zod';

export interface CodecServerOptions {
  codec: PayloadCodec;
  /** Required on every encode/decode: `Authorization: Bearer <token>` or a `/<token>/…` path prefix. */
  token: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1: the browser showing the Web UI runs on this machine. */
  host?: string;
  /** Browser origins allowed to call (the Web UI's). Others get no CORS headers. Default none. */
  corsOrigins?: readonly string[];
  /** Default 4 MiB. */
  maxBodyBytes?: number;
}

export interface CodecServer {
  url: string;
  close(): Promise<void>;
}

const PayloadsBody = z.object({ payloads: z.array(z.record(z.string(), z.unknown())) });
const PayloadProto = temporal.api.common.v1.Payload;
const digest = (value: string) => createHash('sha256').update(value).digest();

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Temporal's remote codec protocol, for the Web UI and the `temporal` CLI: `POST …/encode` and
 * `POST …/decode` with `{ payloads }` in proto3 JSON (bytes as base64). Only the last path
 * segment selects the operation. `X-Namespace` is accepted and not used: one key ring serves
 * every namespace. Nothing is encoded or decoded without the token.
 */
export async function startCodecServer(options: CodecServerOptions): Promise<CodecServer> {
  if (options.token.length === 0) throw new Error('the codec server needs a non-empty token');
  const tokenDigest = digest(options.token);
  const origins = new Set(options.corsOrigins ?? []);
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;

  // Compares digests, so neither the token's content nor its length leaks through timing.
  const tokenMatches = (candidate: string | undefined) =>
    candidate !== undefined && timingSafeEqual(digest(candidate), tokenDigest);

  const server = http.createServer((req, res) => {
    const origin = req.headers.origin;
    if (origin !== undefined && origins.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
    res.setHeader('Vary', 'Origin');
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      // An unread oversized body is not drained; the connection closes after the reply instead.
      if (status === 413) res.setHeader('Connection', 'close');
      if (!res.headersSent)
        sendJson(res, status, { error: err instanceof HttpError ? err.message : 'codec server error' });
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'OPTIONS') {
      // Browsers send no credentials on a preflight; it only learns what the real call may carry.
      if (res.hasHeader('Access-Control-Allow-Origin')) {
        res.setHeader('Access-Control-Allow-Methods', 'POST');
        res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization, X-Namespace');
        res.setHeader('Access-Control-Max-Age', '600');
      }
      res.writeHead(204).end();
      return;
    }
    const segments = new URL(req.url ?? '/', 'http://codec').pathname.split('/').filter((s) => s.length > 0);
    const operation = segments[segments.length - 1];
    if (operation !== 'encode' && operation !== 'decode')
      throw new HttpError(404, 'not found; POST to /encode or /decode');
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST, OPTIONS');
      throw new HttpError(405, `${operation} takes POST`);
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
    // The Web UI cannot send a custom header, so a `/<token>` prefix on the endpoint also counts.
    const pathToken = segments.length > 1 ? safeDecode(segments[0]!) : undefined;
    if (!tokenMatches(bearer) && !tokenMatches(pathToken)) {
      req.resume();
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new HttpError(401, 'missing or wrong codec token');
    }
    const payloads = parsePayloads(await readBody(req, maxBodyBytes));
    let converted: Payload[];
    try {
      converted =
        operation === 'encode' ? await options.codec.encode(payloads) : await decodeEach(options.codec, payloads);
    } catch (err) {
      throw new HttpError(400, `${operation} failed: ${(err as Error).message}`);
    }
    sendJson(res, 200, {
      payloads: converted.map((p) => PayloadProto.toObject(PayloadProto.fromObject(p), { bytes: String })),
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * Decodes payload by payload: one that cannot be read (an unknown key, altered bytes) comes back
 * as it was, still encrypted, so the rest of a history stays readable in the Web UI.
 */
async function decodeEach(codec: PayloadCodec, payloads: Payload[]): Promise<Payload[]> {
  return Promise.all(
    payloads.map(async (payload) => (await codec.decode([payload]).catch(() => [payload]))[0] ?? payload),
  );
}

function parsePayloads(body: string): Payload[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'body is not JSON');
  }
  const parsed = PayloadsBody.safeParse(json);
  if (!parsed.success) throw new HttpError(400, 'body must be { "payloads": [ … ] }');
  try {
    return parsed.data.payloads.map((p) => PayloadProto.fromObject(p));
  } catch (err) {
    throw new HttpError(400, `not a proto3 JSON payload: ${(err as Error).message}`);
  }
}

function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  const tooLarge = () => new HttpError(413, `body over ${limit} bytes`);
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.pause();
        reject(tooLarge());
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
