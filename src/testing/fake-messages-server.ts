import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeEntry, type FakeErrorReply, type FakeReply, type ScriptEntry } from './fake-replies';
import { newRequestId } from './fake-message-ids';
import { authOf, parseRequestBody, redactHeaders, type RecordedRequest } from './recorded-request';
import { renderErrorBody, renderMessage } from './render-message';

/**
 * A scripted stand-in for the Anthropic Messages API over real HTTP on 127.0.0.1, so the real
 * SDK (URL joining, auth headers, error classes, abort handling) is exercised end to end.
 * Each `POST /v1/messages` consumes the next script entry in arrival order. Anything the script
 * did not foresee (no entry left, a malformed request, an unknown route) is answered with an
 * error carrying `x-should-retry: false` (so no client retries a harness mistake) and recorded,
 * so `verify()` fails the test even if the code under test swallowed the error.
 * Test-framework free: also used by the offline demo.
 */
export interface FakeMessagesServerOptions {
  script?: ScriptEntry[];
}

export interface FakeMessagesServer {
  /** Pass as the SDK's `baseURL` / `ANTHROPIC_BASE_URL`; the SDK appends `/v1/messages` itself. */
  readonly baseUrl: string;
  /** Every request received, in arrival order, credentials redacted. */
  readonly requests: readonly RecordedRequest[];
  /** Harness problems recorded so far (what `verify()` reports). */
  readonly errors: readonly string[];
  append(entries: ScriptEntry[]): void;
  /** Throws if any harness problem was recorded or script entries were left unused. */
  verify(): void;
  close(): Promise<void>;
}

const MESSAGES_PATH = '/v1/messages';

export async function startFakeMessagesServer(options: FakeMessagesServerOptions = {}): Promise<FakeMessagesServer> {
  const script: ScriptEntry[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const errors: string[] = [];
  let consumed = 0;
  // Ends pending `delayMs` waits when the server closes, so no handler outlives it.
  const pendingWaits = new Set<() => void>();

  function send(res: ServerResponse, record: RecordedRequest, status: number, body: unknown, headers: Record<string, string>) {
    if (res.writableEnded || res.destroyed) return;
    record.status = status;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  function sendError(res: ServerResponse, record: RecordedRequest, reply: Omit<FakeErrorReply, 'kind' | 'delayMs'>) {
    const headers = { 'request-id': newRequestId(), ...reply.headers };
    send(res, record, reply.status, renderErrorBody(reply.errorType, reply.message, headers['request-id']), headers);
  }

  /** A mistake of the test or of the code under test: answer loudly and remember it for verify(). */
  function fail(res: ServerResponse, record: RecordedRequest, status: number, errorType: string, problem: string) {
    const message = `Fake Messages server: ${problem}`;
    errors.push(message);
    sendError(res, record, { status, errorType, message, headers: { 'x-should-retry': 'false' } });
  }

  /** Resolves true after `ms`, or false as soon as the client disconnects or the server closes. */
  function wait(ms: number, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (completed: boolean) => {
        clearTimeout(timer);
        res.off('close', onClose);
        pendingWaits.delete(onClose);
        resolve(completed);
      };
      const onClose = () => finish(false);
      const timer = setTimeout(() => finish(true), ms);
      res.once('close', onClose);
      pendingWaits.add(onClose);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const parsed = parseRequestBody(raw);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: redactHeaders(req.headers),
      auth: authOf(req.headers),
      body: parsed.body,
      clientAborted: false,
    };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.clientAborted = true;
    });

    if (record.method !== 'POST' || path !== MESSAGES_PATH) {
      return fail(res, record, 404, 'not_found_error', `no route for ${record.method} ${path} (only POST ${MESSAGES_PATH})`);
    }
    // The real API's answer, not a harness problem: a test may send no credentials on purpose.
    if (record.auth === 'none') {
      return sendError(res, record, {
        status: 401,
        errorType: 'authentication_error',
        message: 'x-api-key header or Authorization: Bearer token is required',
        headers: {},
      });
    }
    if (parsed.problem !== undefined || parsed.body === undefined) {
      return fail(res, record, 400, 'invalid_request_error', parsed.problem ?? 'unreadable request body');
    }
    if (parsed.body.stream === true) {
      return fail(res, record, 400, 'invalid_request_error', 'streaming (stream: true) is not supported yet');
    }
    const entry = script.shift();
    if (entry === undefined) {
      return fail(res, record, 500, 'api_error', `script exhausted: request #${requests.length} arrived after all ${consumed} entries were used`);
    }
    consumed += 1;
    let reply: FakeReply;
    try {
      reply = typeof entry === 'function' ? await entry(parsed.body) : entry;
    } catch (err) {
      return fail(res, record, 500, 'api_error', `script entry #${consumed} (${describeEntry(entry)}) threw: ${String(err)}`);
    }
    if (reply.delayMs !== undefined && reply.delayMs > 0 && !(await wait(reply.delayMs, res))) return;
    if (reply.kind === 'error') return sendError(res, record, reply);
    send(res, record, 200, renderMessage(reply, parsed.body.model), { 'request-id': newRequestId() });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      errors.push(`Fake Messages server: handler crashed: ${String(err)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    errors,
    append(entries) {
      script.push(...entries);
    },
    verify() {
      const problems = [...errors];
      if (script.length > 0) {
        problems.push(`Fake Messages server: ${script.length} script entries left unused: ${script.map(describeEntry).join('; ')}`);
      }
      if (problems.length > 0) throw new Error(problems.join('\n'));
    },
    close() {
      for (const endWait of [...pendingWaits]) endWait();
      // Keep-alive sockets from the SDK's fetch would otherwise hold close() open.
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
