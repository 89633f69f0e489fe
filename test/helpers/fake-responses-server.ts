import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody, verifyScript } from '../../src/testing/fake-server-kit';

/**
 * A scripted stand-in for the Responses API (`POST /v1/responses`, streamed as SSE) over real
 * HTTP on 127.0.0.1: what `@ai-sdk/openai` and `@ai-sdk/xai` call when a provider is built by name
 * (their `languageModel(id)` is the Responses model). Each request takes the next script entry; a
 * request the script did not foresee (wrong route or key, not streamed, no entry left) is answered
 * 400 and recorded, so `verify()` fails the test even when the code under test swallowed it.
 * Only what a tool-calling exchange needs: one text message or one function call, and usage.
 */
export type ResponsesReply =
  | { kind: 'text'; text: string; usage?: ResponsesUsage }
  | { kind: 'function_call'; callId: string; name: string; arguments: string; usage?: ResponsesUsage };

export interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
}

export interface ResponsesRequest {
  path: string;
  body: Record<string, unknown>;
}

export interface FakeResponsesServer {
  /** Includes `/v1`: pass as `baseURL`; the package appends `/responses`. */
  readonly baseUrl: string;
  readonly requests: readonly ResponsesRequest[];
  append(replies: ResponsesReply[]): void;
  verify(): void;
  close(): Promise<void>;
}

export async function startFakeResponsesServer(options: { apiKey: string }): Promise<FakeResponsesServer> {
  const script: ResponsesReply[] = [];
  const requests: ResponsesRequest[] = [];
  const errors: string[] = [];
  let served = 0;

  function fail(res: ServerResponse, problem: string) {
    errors.push(`Fake Responses server: ${problem}`);
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: problem, type: 'invalid_request_error', param: null, code: null } }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return fail(res, 'request body is not JSON');
    }
    requests.push({ path, body });
    if (req.method !== 'POST' || path !== '/v1/responses') return fail(res, `no route for ${req.method} ${path}`);
    if (req.headers.authorization !== `Bearer ${options.apiKey}`) return fail(res, 'wrong or missing bearer key');
    if (body.stream !== true) return fail(res, 'only streamed requests are scripted');
    const reply = script.shift();
    if (reply === undefined) return fail(res, `script exhausted at request #${requests.length}`);
    served += 1;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const event of eventsOf(reply, served, String(body.model))) {
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    }
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      errors.push(`Fake Responses server: handler crashed: ${String(err)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    append: (replies) => script.push(...replies),
    verify: () => verifyScript('Fake Responses server', errors, script, (r) => r.kind),
    close: () => closeServer(server, new Set()),
  };
}

/** The event sequence the Responses API streams for one output item, numbered as it numbers them. */
function eventsOf(reply: ResponsesReply, n: number, model: string): Array<Record<string, unknown>> {
  const usage = reply.usage ?? { input_tokens: 10, output_tokens: 5 };
  const head = { id: `resp_${n}`, object: 'response', created_at: 1_764_000_000, model, incomplete_details: null };
  const events: Array<Record<string, unknown>> = [];
  const item =
    reply.kind === 'text'
      ? { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [outputText(reply.text)] }
      : {
          type: 'function_call',
          id: `fc_${n}`,
          call_id: reply.callId,
          name: reply.name,
          arguments: reply.arguments,
          status: 'completed',
        };
  events.push({ type: 'response.created', response: { ...head, status: 'in_progress', output: [], usage: null } });
  if (reply.kind === 'text') {
    const ids = { item_id: item.id, output_index: 0, content_index: 0 };
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...ids, part: outputText('') },
      { type: 'response.output_text.delta', ...ids, delta: reply.text, logprobs: [] },
      { type: 'response.output_text.done', ...ids, text: reply.text, logprobs: [] },
      { type: 'response.content_part.done', ...ids, part: outputText(reply.text) },
    );
  } else {
    const ids = { item_id: item.id, output_index: 0 };
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } },
      { type: 'response.function_call_arguments.delta', ...ids, delta: reply.arguments },
      { type: 'response.function_call_arguments.done', ...ids, arguments: reply.arguments },
    );
  }
  events.push(
    { type: 'response.output_item.done', output_index: 0, item },
    {
      type: 'response.completed',
      response: {
        ...head,
        status: 'completed',
        output: [item],
        usage: {
          ...usage,
          total_tokens: usage.input_tokens + usage.output_tokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      },
    },
  );
  return events.map((event, i) => ({ ...event, sequence_number: i }));
}

const outputText = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });
