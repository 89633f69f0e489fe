import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiVersionProblem } from './fake-api-version';
import { closeServer, readBody, verifyScript } from './fake-server-kit';
import { describeEntry, type FakeMessageReply, type FakeReply, type ScriptEntry } from './fake-replies';
import {
  breakpointProblem,
  createFakePromptCache,
  estimateTokens,
  type PromptCacheOptions,
  type PromptCacheTotals,
  type PromptCacheUsage,
} from './fake-prompt-cache';
import { respond, sendError, type Exchange } from './fake-responder';
import { authOf, parseRequestBody, redactHeaders, type RecordedRequest } from './recorded-request';

/**
 * A scripted stand-in for the Anthropic Messages API over real HTTP on 127.0.0.1, so the real
 * SDK (URL joining, auth headers, error classes, SSE parsing, abort handling) is exercised end to
 * end. Each `POST /v1/messages` consumes the next script entry in arrival order and is answered
 * as JSON, or as SSE events when the request says `stream: true`. Anything the script
 * did not foresee (no entry left, a malformed request, an unknown route) is answered with an
 * error carrying `x-should-retry: false` (so no client retries a harness mistake) and recorded,
 * so `verify()` fails the test even if the code under test swallowed the error.
 * Test-framework free: also used by the offline demo.
 */
export interface FakeMessagesServerOptions {
  script?: ScriptEntry[];
  /**
   * Simulate prompt caching (see fake-prompt-cache.ts): replies then report the input, cache read
   * and cache write tokens of their request, and output tokens estimated from their content
   * unless the script sets them. Off by default: replies carry the script's usage.
   */
  promptCache?: boolean | PromptCacheOptions;
}

export interface FakeMessagesServer {
  /** Pass as the SDK's `baseURL` / `ANTHROPIC_BASE_URL`; the SDK appends `/v1/messages` itself. */
  readonly baseUrl: string;
  /** Every request received, in arrival order, credentials redacted. */
  readonly requests: readonly RecordedRequest[];
  /** Harness problems recorded so far (what `verify()` reports). */
  readonly errors: readonly string[];
  append(entries: ScriptEntry[]): void;
  /** Token sums over the replies so far when prompt caching is simulated; all zero otherwise. */
  cacheTotals(): PromptCacheTotals;
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
  const cache =
    options.promptCache === undefined || options.promptCache === false
      ? undefined
      : createFakePromptCache(options.promptCache === true ? {} : options.promptCache);
  // Ends pending waits (delays, hangs) when the server closes, so no handler outlives it.
  const pendingWaits = new Set<() => void>();

  /** A mistake of the test or of the code under test: answer loudly and remember it for verify(). */
  function fail(x: Exchange, status: number, errorType: string, problem: string) {
    const message = `Fake Messages server: ${problem}`;
    errors.push(message);
    sendError(x, { status, errorType, message, headers: { 'x-should-retry': 'false' } });
  }

  /** Resolves true after `ms` (never, if undefined), or false as soon as the client disconnects or the server closes. */
  function wait(ms: number | undefined, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (completed: boolean) => {
        if (timer !== undefined) clearTimeout(timer);
        res.off('close', onClose);
        pendingWaits.delete(onClose);
        resolve(completed);
      };
      const onClose = () => finish(false);
      const timer = ms === undefined ? undefined : setTimeout(() => finish(true), ms);
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
      stream: parsed.body?.stream === true,
      clientAborted: false,
    };
    requests.push(record);
    const x: Exchange = {
      res,
      record,
      stall: () => wait(undefined, res),
      pause: (ms) => wait(ms, res),
      closedByServer: false,
    };
    res.on('close', () => {
      if (!res.writableFinished && !x.closedByServer) record.clientAborted = true;
    });

    if (record.method !== 'POST' || path !== MESSAGES_PATH) {
      return fail(x, 404, 'not_found_error', `no route for ${record.method} ${path} (only POST ${MESSAGES_PATH})`);
    }
    // The real API's answer, not a harness problem: a test may send no credentials on purpose.
    if (record.auth === 'none') {
      return sendError(x, {
        status: 401,
        errorType: 'authentication_error',
        message: 'x-api-key header or Authorization: Bearer token is required',
        headers: {},
      });
    }
    if (parsed.problem !== undefined || parsed.body === undefined) {
      return fail(x, 400, 'invalid_request_error', parsed.problem ?? 'unreadable request body');
    }
    // The real API's answer to misplaced cache markers; a mistake of the code under test, so recorded too.
    const markers = breakpointProblem(parsed.body);
    if (markers !== undefined) return fail(x, 400, 'invalid_request_error', markers);
    const version = apiVersionProblem(record.headers['anthropic-version'], parsed.body);
    if (version !== undefined) return fail(x, 400, 'invalid_request_error', version);
    const entry = script.shift();
    if (entry === undefined) {
      return fail(
        x,
        500,
        'api_error',
        `script exhausted: request #${requests.length} arrived after all ${consumed} entries were used`,
      );
    }
    consumed += 1;
    let reply: FakeReply;
    try {
      reply = typeof entry === 'function' ? await entry(parsed.body) : entry;
    } catch (err) {
      return fail(x, 500, 'api_error', `script entry #${consumed} (${describeEntry(entry)}) threw: ${String(err)}`);
    }
    if (cache !== undefined) reply = withCacheUsage(reply, cache.account(parsed.body), cache.countOutput);
    if (reply.delayMs !== undefined && reply.delayMs > 0 && !(await wait(reply.delayMs, res))) return;
    await respond(x, reply, parsed.body.model, record.stream);
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
    cacheTotals: () =>
      cache?.totals() ?? { requests: 0, inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 },
    verify() {
      verifyScript('Fake Messages server', errors, script, describeEntry);
    },
    close: () => closeServer(server, pendingWaits),
  };
}

/**
 * A reply that reports its request's cache accounting (a message, or a broken reply's message:
 * the API counts the prompt once it starts answering); errors are returned unchanged.
 */
function withCacheUsage(reply: FakeReply, input: PromptCacheUsage, countOutput: (tokens: number) => void): FakeReply {
  if (reply.kind !== 'message' && reply.kind !== 'broken') return reply;
  const message = reply.kind === 'message' ? reply : reply.reply;
  const output = message.usage.output_tokens ?? estimateTokens(message.content);
  countOutput(output);
  const priced: FakeMessageReply = { ...message, usage: { ...message.usage, ...input, output_tokens: output } };
  return reply.kind === 'message' ? priced : { ...reply, reply: priced };
}
