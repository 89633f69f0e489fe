import { once } from 'node:events';
import type { FastifyReply } from 'fastify';

/** The headers of the SDK's own SSE responses (its express adapter's), which its client expects. */
const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/** A comment line every so often keeps proxies from closing a stream that waits (for a person, for hours). */
const PING_MS = 15_000;

/**
 * Writes a JSON-RPC response stream as the SDK's SSE wire format: `data: <json>` per response; a
 * failure after the first event as an `event: error` frame (a failure before it is answered as
 * plain JSON by the caller). Ends when the stream does, or the client goes.
 */
export async function writeSse(
  reply: FastifyReply,
  first: unknown,
  rest: AsyncIterator<unknown>,
  errorOf: (err: unknown) => unknown,
  abort: AbortSignal,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, SSE_HEADERS);
  const ping = setInterval(() => raw.write(': ping\n\n'), PING_MS);
  ping.unref();
  const write = async (frame: string): Promise<void> => {
    if (raw.destroyed || raw.writableEnded) return;
    if (!raw.write(frame)) await Promise.race([once(raw, 'drain'), once(raw, 'close')]);
  };
  try {
    await write(`data: ${JSON.stringify(first)}\n\n`);
    for (;;) {
      if (abort.aborted || raw.destroyed) break;
      const next = await rest.next();
      if (next.done) break;
      await write(`data: ${JSON.stringify(next.value)}\n\n`);
    }
  } catch (err) {
    await write(`event: error\ndata: ${JSON.stringify(errorOf(err))}\n\n`);
  } finally {
    clearInterval(ping);
    await rest.return?.(undefined).catch(() => undefined);
    if (!raw.writableEnded) raw.end();
  }
}
