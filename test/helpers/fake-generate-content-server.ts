import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody, verifyScript } from '../../src/testing/fake-server-kit';

/**
 * A scripted stand-in for Google's Generative Language API (`models/{id}:streamGenerateContent?alt=sse`
 * and `:generateContent`) over real HTTP on 127.0.0.1, for `@ai-sdk/google`. Each request takes the
 * next script entry; a request the script did not foresee (wrong route, wrong key, no entry left) is
 * answered 400 and recorded, so `verify()` fails the test even when the code under test swallowed it.
 * Only what a tool-calling exchange needs: text parts, functionCall parts, usageMetadata.
 */
export type GeminiPart = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export interface GeminiReply {
  parts: GeminiPart[];
  /** Gemini says STOP for a finished turn, function calls included. */
  finishReason?: 'STOP' | 'MAX_TOKENS';
  usage?: { promptTokenCount: number; candidatesTokenCount: number };
}

export interface GeminiRequest {
  path: string;
  streamed: boolean;
  body: Record<string, unknown>;
}

export interface FakeGenerateContentServer {
  /** Pass as `baseURL`; the package appends `/models/{id}:…`. */
  readonly baseUrl: string;
  readonly requests: readonly GeminiRequest[];
  append(replies: GeminiReply[]): void;
  verify(): void;
  close(): Promise<void>;
}

const PREFIX = '/v1beta/models/';

export async function startFakeGenerateContentServer(options: { apiKey: string }): Promise<FakeGenerateContentServer> {
  const script: GeminiReply[] = [];
  const requests: GeminiRequest[] = [];
  const errors: string[] = [];

  function fail(res: ServerResponse, problem: string) {
    errors.push(`Fake generateContent server: ${problem}`);
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 400, message: problem, status: 'INVALID_ARGUMENT' } }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const action = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length).split(':')[1] : undefined;
    const streamed = action === 'streamGenerateContent' && url.searchParams.get('alt') === 'sse';
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return fail(res, 'request body is not JSON');
    }
    requests.push({ path: url.pathname, streamed, body });
    if (req.method !== 'POST' || (action !== 'generateContent' && !streamed)) {
      return fail(res, `no route for ${req.method} ${url.pathname}${url.search}`);
    }
    if (req.headers['x-goog-api-key'] !== options.apiKey) return fail(res, 'wrong or missing x-goog-api-key');
    const reply = script.shift();
    if (reply === undefined) return fail(res, `script exhausted at request #${requests.length}`);
    const usage = reply.usage ?? { promptTokenCount: 10, candidatesTokenCount: 5 };
    const response = {
      candidates: [
        { content: { role: 'model', parts: reply.parts }, finishReason: reply.finishReason ?? 'STOP', index: 0 },
      ],
      usageMetadata: { ...usage, totalTokenCount: usage.promptTokenCount + usage.candidatesTokenCount },
      modelVersion: url.pathname.slice(PREFIX.length).split(':')[0],
    };
    if (!streamed) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(response));
    }
    // One SSE event per part, the last carrying finishReason and usage, as Gemini streams.
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.parts.forEach((part, i) => {
      const last = i === reply.parts.length - 1;
      const chunk = last
        ? { ...response, candidates: [{ ...response.candidates[0], content: { role: 'model', parts: [part] } }] }
        : {
            candidates: [{ content: { role: 'model', parts: [part] }, index: 0 }],
            modelVersion: response.modelVersion,
          };
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    });
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      errors.push(`Fake generateContent server: handler crashed: ${String(err)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1beta`,
    requests,
    append: (replies) => script.push(...replies),
    verify: () => verifyScript('Fake generateContent server', errors, script, (r) => JSON.stringify(r.parts)),
    close: () => closeServer(server, new Set()),
  };
}
