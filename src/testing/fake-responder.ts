import type { ServerResponse } from 'node:http';
import { statusOfErrorType } from './fake-faults';
import { describeFault, type FakeBrokenReply, type FakeErrorReply, type FakeReply } from './fake-replies';
import { newRequestId } from './fake-message-ids';
import type { RecordedRequest } from './recorded-request';
import { renderErrorBody, renderMessage } from './render-message';
import { renderStreamEvents, sseText } from './render-stream';

/**
 * Writes one scripted reply to the wire: JSON, SSE, a non-JSON body, or a fault. Everything the
 * client could observe is recorded on `record` (status, events sent, the fault).
 */
export interface Exchange {
  res: ServerResponse;
  record: RecordedRequest;
  /** Resolves once the client leaves or the server closes; never answers on its own. */
  stall(): Promise<unknown>;
  /** Resolves true after `ms`, or false early if the client leaves or the server closes. */
  pause(ms: number): Promise<boolean>;
  /** Set when the server itself tears the connection down, so it is not taken for a client abort. */
  closedByServer: boolean;
}

type ErrorFields = Pick<FakeErrorReply, 'status' | 'errorType' | 'message' | 'headers'>;

export function sendJson(x: Exchange, status: number, body: unknown, headers: Record<string, string>): void {
  if (x.res.writableEnded || x.res.destroyed) return;
  x.record.status = status;
  x.res.writeHead(status, { 'content-type': 'application/json', ...headers });
  x.res.end(JSON.stringify(body));
}

export function sendError(x: Exchange, reply: ErrorFields): void {
  const headers = { 'request-id': newRequestId(), ...reply.headers };
  sendJson(x, reply.status, renderErrorBody(reply.errorType, reply.message, headers['request-id']), headers);
}

export async function respond(x: Exchange, reply: FakeReply, model: string, stream: boolean): Promise<void> {
  switch (reply.kind) {
    case 'error':
      return sendError(x, reply);
    case 'raw':
      x.record.fault = `non-JSON ${reply.status} (${reply.contentType})`;
      x.record.status = reply.status;
      x.res.writeHead(reply.status, { 'content-type': reply.contentType, ...reply.headers });
      x.res.end(reply.body);
      return;
    case 'message':
      if (!stream) return sendJson(x, 200, renderMessage(reply, model), { 'request-id': newRequestId() });
      await writeEvents(x, renderStreamEvents(reply, model).map(sseText), reply.eventGapMs);
      x.res.end();
      return;
    case 'broken':
      return respondBroken(x, reply, model, stream);
  }
}

async function respondBroken(x: Exchange, reply: FakeBrokenReply, model: string, stream: boolean): Promise<void> {
  const { fault } = reply;
  x.record.fault = describeFault(reply);
  if (fault.type === 'error_event' && !stream) {
    return sendError(x, {
      status: statusOfErrorType(fault.errorType),
      errorType: fault.errorType,
      message: fault.message,
      headers: {},
    });
  }
  if (reply.afterEvents > 0 || fault.type === 'eof' || fault.type === 'error_event') {
    if (stream) {
      const events = renderStreamEvents(reply.reply, model);
      // Never the last event (message_stop): a broken stream must not look complete.
      await writeEvents(x, events.slice(0, Math.min(reply.afterEvents, events.length - 1)).map(sseText));
    } else {
      const json = JSON.stringify(renderMessage(reply.reply, model));
      x.record.status = 200;
      x.res.writeHead(200, { 'content-type': 'application/json', 'request-id': newRequestId() });
      await write(x, json.slice(0, Math.floor(json.length / 2)));
    }
  }
  switch (fault.type) {
    case 'hang':
      await x.stall();
      return;
    case 'reset':
      x.closedByServer = true;
      // A TCP RST, as a crashed proxy or a dropped NAT entry produces; not a clean FIN.
      if (x.res.socket !== null) x.res.socket.resetAndDestroy();
      else x.res.destroy();
      return;
    case 'eof':
      x.res.end();
      return;
    case 'error_event':
      await write(
        x,
        sseText({ event: 'error', data: renderErrorBody(fault.errorType, fault.message, newRequestId()) }),
      );
      x.res.end();
      return;
  }
}

/** Sends SSE headers (once) and the events one write at a time, counting them on the record. */
async function writeEvents(x: Exchange, events: string[], gapMs = 0): Promise<void> {
  if (!x.res.headersSent) {
    x.record.status = 200;
    x.record.eventsSent = 0;
    x.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': newRequestId(),
    });
  }
  for (const [i, event] of events.entries()) {
    if (i > 0 && gapMs > 0 && !(await x.pause(gapMs))) return;
    if (!(await write(x, event))) return;
    x.record.eventsSent = (x.record.eventsSent ?? 0) + 1;
  }
}

/** Resolves true once `chunk` is handed to the socket, false if the connection is gone. */
function write(x: Exchange, chunk: string): Promise<boolean> {
  if (x.res.writableEnded || x.res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => x.res.write(chunk, (err) => resolve(err === undefined || err === null)));
}
