import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpHttpServer, mcpTypes } from '../activities/mcp/mcp-sdk';
import { ApiError } from '../server/api-error';
import { personKey } from '../server/auth/person-key';
import type { Identity } from '../server/auth/identity';
import { createMcpServer } from './create-mcp-server';
import type { FollowDeps } from './follow-run';
import { MAX_BODY_BYTES, MAX_SESSIONS, MAX_SESSIONS_PER_PERSON, SESSION_IDLE_MS } from './mcp-limits';

export interface McpHttpOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface RunningMcpHttp {
  /** `http://host:port/mcp`. */
  url: string;
  sessionCount(): number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Who opened it: every later request of the session must authenticate as the same person. */
  owner: string;
  /** That person as the request being handled authenticated them: roles are read per request, never kept from the first. */
  caller: { identity: Identity };
  /** When its last request arrived (ms). */
  seen: number;
}

/** Sessions belong to a person (personKey: tenant, id and how they signed in). */
const ownerKey = (identity: Identity): string => personKey(identity);

/** A JSON-RPC error as the HTTP response, the protocol's own shape (never a stack). */
function refuse(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The body as JSON, at most MAX_BODY_BYTES; `undefined` for a request without one. */
async function readBody(req: IncomingMessage): Promise<{ body?: unknown } | { tooLarge: true } | { bad: true }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { tooLarge: true };
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { bad: true };
  }
}

/**
 * `mcp-server --http`: Streamable HTTP at `/mcp`. Every request authenticates like `serve`'s API
 * (`ctx.auth`: the token file, OIDC); a session belongs to whoever initialized it and answers
 * nobody else (another person's session id is "not found"). Each session has its own MCP server
 * bound to that identity.
 */
export async function startMcpHttp(deps: FollowDeps, options: McpHttpOptions): Promise<RunningMcpHttp> {
  const sessions = new Map<string, Session>();
  const host = options.host ?? '127.0.0.1';

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp') return refuse(res, 404, -32601, 'Not found: the MCP endpoint is /mcp.');
    let identity: Identity;
    try {
      identity = await deps.ctx.auth.authenticate(req.headers.authorization);
    } catch (err) {
      const message =
        err instanceof ApiError ? err.message : 'Send "Authorization: Bearer <token>" with a valid token.';
      return refuse(res, 401, -32001, message, { 'www-authenticate': 'Bearer' });
    }
    const read = req.method === 'POST' ? await readBody(req) : {};
    if ('tooLarge' in read) return refuse(res, 413, -32600, `The request body is over ${MAX_BODY_BYTES} bytes.`);
    if ('bad' in read) return refuse(res, 400, -32700, 'Parse error: the body is not JSON.');
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session || session.owner !== ownerKey(identity))
        return refuse(res, 404, -32001, 'Session not found: initialize a new one.');
      session.seen = Date.now();
      session.caller.identity = identity;
      return session.transport.handleRequest(req, res, read.body);
    }
    if (req.method !== 'POST' || !mcpTypes().isInitializeRequest(read.body))
      return refuse(res, 400, -32600, 'Bad request: no session; send an initialize request first.');
    if (sessions.size >= MAX_SESSIONS)
      return refuse(res, 503, -32000, 'The server holds as many sessions as it may; try again later.');
    const owner = ownerKey(identity);
    if ([...sessions.values()].filter((s) => s.owner === owner).length >= MAX_SESSIONS_PER_PERSON)
      return refuse(res, 429, -32000, `You hold ${MAX_SESSIONS_PER_PERSON} sessions; close one (DELETE /mcp) first.`);
    const caller = { identity };
    const server = createMcpServer(deps, () => caller.identity);
    const transport: StreamableHTTPServerTransport = new (mcpHttpServer().StreamableHTTPServerTransport)({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, owner, caller, seen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, read.body);
  };

  // Sessions a client left without closing: closed after SESSION_IDLE_MS without a request.
  const sweep = setInterval(
    () => {
      const before = Date.now() - SESSION_IDLE_MS;
      for (const [id, session] of sessions)
        if (session.seen < before) {
          sessions.delete(id);
          void session.server.close().catch(() => undefined);
        }
    },
    Math.min(SESSION_IDLE_MS, 60_000),
  );
  sweep.unref();

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      deps.log(`mcp-server: a request failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      refuse(res, 500, -32603, 'Internal error; the server log says more.');
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, host, () => resolve());
  });
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    sessionCount: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => undefined)));
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
