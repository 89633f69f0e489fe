import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './address-guard';

export interface PinnedRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** The checked address: the connection goes there and nowhere else, whatever DNS says now. */
  pin: ResolvedAddress;
  maxResponseBytes: number;
  signal: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body was longer than `maxResponseBytes` and was cut there. */
  truncated: boolean;
}

/** A `lookup` that answers every question with the pinned address (both callback shapes Node uses). */
function pinnedLookup(pin: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pin.address, family: pin.family }]);
    else callback(null, pin.address, pin.family);
  }) as LookupFunction;
}

/**
 * One HTTP exchange over a fresh connection (no agent pool: a pooled socket could be to another
 * address) to the pinned address; TLS still checks the certificate against the URL's host name.
 * The body is read until `maxResponseBytes`, then the response is destroyed: no more is read.
 */
export function pinnedRequest(request: PinnedRequest): Promise<RawResponse> {
  const client = request.url.protocol === 'https:' ? https : http;
  return new Promise<RawResponse>((resolve, reject) => {
    const req = client.request(request.url, {
      method: request.method,
      headers: { ...request.headers, 'accept-encoding': 'identity', connection: 'close' },
      agent: false,
      lookup: pinnedLookup(request.pin),
      signal: request.signal,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const done = () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks, size), truncated });
      res.on('data', (chunk: Buffer) => {
        const room = request.maxResponseBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size += room;
          truncated = true;
          res.destroy();
          done();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', done);
      res.on('error', (err) => (truncated ? undefined : reject(err)));
    });
    req.end(request.body);
  });
}
