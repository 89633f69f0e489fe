import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody, verifyScript } from '../fake-server-kit';
import { authOf, redactHeaders } from '../recorded-request';
import { newRequestId } from './fake-openai-ids';
import {
  describeEntry,
  type ChatScriptEntry,
  type FakeChatReply,
  type FakeChatScriptReply,
} from './fake-openai-replies';
import { parseChatRequestBody, type RecordedChatRequest } from './recorded-chat-request';
import { renderChunks, renderCompletion, type StreamUsageDialect } from './render-chat-completion';

/**
 * A scripted stand-in for an OpenAI-compatible Chat Completions server (OpenAI, Ollama, vLLM,
 * llama.cpp, LM Studio) over real HTTP on 127.0.0.1, so the real client (URL joining, headers,
 * SSE parsing, abort handling) is exercised end to end. Each `POST /v1/chat/completions`
 * consumes the next script entry in arrival order, streamed or not as the request asks.
 * Anything the script did not foresee (no entry left, a malformed request, an unknown route, a
 * stream fault for a non-streamed request) is answered with an error carrying
 * `x-should-retry: false` and recorded, so `verify()` fails the test even if the code under test
 * swallowed the error. Test-framework free.
 */
export interface FakeOpenAIServerOptions {
  script?: ChatScriptEntry[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401 (as `vllm --api-key`). Default: no auth needed. */
  apiKey?: string;
  /** Where streamed replies report usage; default `openai` (only when the request asks). */
  usageDialect?: StreamUsageDialect;
}

export interface FakeOpenAIServer {
  /** Includes `/v1`: pass as the provider's `baseURL`, which appends `/chat/completions`. */
  readonly baseUrl: string;
  /** Every request received, in arrival order, credentials redacted. */
  readonly requests: readonly RecordedChatRequest[];
  /** Harness problems recorded so far (what `verify()` reports). */
  readonly errors: readonly string[];
  append(entries: ChatScriptEntry[]): void;
  /** Throws if any harness problem was recorded or script entries were left unused. */
  verify(): void;
  close(): Promise<void>;
}

const CHAT_PATH = '/v1/chat/completions';
const RESET_AFTER_MS = 25;

export async function startFakeOpenAIServer(options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  const script: ChatScriptEntry[] = [...(options.script ?? [])];
  const requests: RecordedChatRequest[] = [];
  const errors: string[] = [];
  let consumed = 0;
  // Ends pending waits when the server closes, so no handler outlives it.
  const pendingWaits = new Set<() => void>();

  function send(
    res: ServerResponse,
    record: RecordedChatRequest,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    if (res.writableEnded || res.destroyed) return;
    record.status = status;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const contentType = typeof body === 'string' ? 'text/plain' : 'application/json';
    res.writeHead(status, { 'content-type': contentType, 'x-request-id': newRequestId(), ...headers });
    res.end(text);
  }

  /** A mistake of the test or of the code under test: answer loudly and remember it for verify(). */
  function fail(res: ServerResponse, record: RecordedChatRequest, status: number, problem: string) {
    const message = `Fake OpenAI server: ${problem}`;
    errors.push(message);
    send(
      res,
      record,
      status,
      { error: { message, type: 'invalid_request_error', param: null, code: null } },
      { 'x-should-retry': 'false' },
    );
  }

  /** Resolves true after `ms` (never, for Infinity), or false once the client disconnects or the server closes. */
  function wait(ms: number, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (completed: boolean) => {
        clearTimeout(timer);
        res.off('close', onClose);
        pendingWaits.delete(onClose);
        resolve(completed);
      };
      const onClose = () => finish(false);
      const timer = Number.isFinite(ms) ? setTimeout(() => finish(true), ms) : undefined;
      res.once('close', onClose);
      pendingWaits.add(onClose);
    });
  }

  async function stream(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedChatRequest,
    reply: FakeChatReply,
    includeUsage: boolean,
  ) {
    const { deltas, finish, usage } = renderChunks(reply, record.body?.model ?? '', includeUsage, options.usageDialect);
    record.status = 200;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-request-id': newRequestId(),
    });
    const event = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    deltas.forEach(event);
    const end = reply.streamEnd;
    if (end === 'reset') {
      // Lets the chunks reach the client first, so it sees a stream that breaks, not a refused request.
      if (await wait(RESET_AFTER_MS, res)) req.socket.resetAndDestroy();
      return;
    }
    if (typeof end === 'object') event(end);
    if (end === 'done' || end === 'eof-before-done') {
      event(finish);
      if (usage !== undefined) event(usage);
    }
    if (end === 'done') event('[DONE]');
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const parsed = parseChatRequestBody(raw);
    const record: RecordedChatRequest = {
      method: req.method ?? 'GET',
      path,
      headers: redactHeaders(req.headers),
      auth: authOf(req.headers) === 'bearer' ? 'bearer' : 'none',
      body: parsed.body,
      clientAborted: false,
    };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.clientAborted = true;
    });

    if (record.method !== 'POST' || path !== CHAT_PATH) {
      return fail(res, record, 404, `no route for ${record.method} ${path} (only POST ${CHAT_PATH})`);
    }
    // The real server's answer, not a harness problem: a test may send a wrong key on purpose.
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      const error = {
        message: 'Incorrect API key provided',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      };
      return send(res, record, 401, { error });
    }
    if (parsed.problem !== undefined || parsed.body === undefined) {
      return fail(res, record, 400, parsed.problem ?? 'unreadable request body');
    }
    const entry = script.shift();
    if (entry === undefined) {
      return fail(
        res,
        record,
        500,
        `script exhausted: request #${requests.length} arrived after all ${consumed} entries were used`,
      );
    }
    consumed += 1;
    let reply: FakeChatScriptReply;
    try {
      reply = typeof entry === 'function' ? await entry(parsed.body) : entry;
    } catch (err) {
      return fail(res, record, 500, `script entry #${consumed} (${describeEntry(entry)}) threw: ${String(err)}`);
    }
    if (reply.kind === 'reset') return void req.socket.resetAndDestroy();
    if (reply.kind === 'hang') return void (await wait(Infinity, res));
    if (reply.delayMs !== undefined && reply.delayMs > 0 && !(await wait(reply.delayMs, res))) return;
    if (reply.kind === 'error') return send(res, record, reply.status, reply.body, reply.headers);
    const streamed = parsed.body.stream === true;
    if (streamed) return stream(req, res, record, reply, parsed.body.stream_options?.include_usage === true);
    if (reply.streamEnd !== 'done') {
      return fail(
        res,
        record,
        500,
        `script entry #${consumed} (${describeEntry(reply)}) is a stream fault but the request was not streamed`,
      );
    }
    send(res, record, 200, renderCompletion(reply, parsed.body.model));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      errors.push(`Fake OpenAI server: handler crashed: ${String(err)}`);
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
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    errors,
    append(entries) {
      script.push(...entries);
    },
    verify() {
      verifyScript('Fake OpenAI server', errors, script, describeEntry);
    },
    close: () => closeServer(server, pendingWaits),
  };
}
