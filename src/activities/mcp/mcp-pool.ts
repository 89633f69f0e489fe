import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpConfig, McpServerConfig } from '../../domain/tools/mcp-config';
import { mcpClient, mcpHttpClient, mcpStdioClient, mcpTypes } from './mcp-sdk';
import { authorizedFetch, type Environment } from './mcp-http-auth';

/** Last characters of a stdio server's stderr kept for error messages (after the worker's redaction). */
const STDERR_TAIL_CHARS = 2_000;
const CONNECT_TIMEOUT_MS = 30_000;

export interface McpConnection {
  readonly server: string;
  readonly client: Client;
  /** Process id of a stdio server; undefined for HTTP. */
  readonly pid: number | undefined;
  /** The tools that take tasks (`execution.taskSupport`), once tools/list ran on this connection. */
  taskTools: Set<string> | undefined;
  /** False once the transport closed (the process exited, the HTTP session ended). */
  isOpen(): boolean;
  /** What the server last wrote to stderr, for error messages. */
  stderrTail(): string;
  /**
   * Routes the server's `elicitation/create` requests to a call while it runs. A request is
   * the call's only when it is the one call in flight on this connection; with several, the
   * server is told `cancel` (MCP's stdio and HTTP messages do not say which call asked).
   */
  whileCalling(onElicit: ElicitHandler): () => void;
}

export type ElicitHandler = (params: ElicitRequest['params']) => Promise<ElicitResult> | ElicitResult;

export interface McpPool {
  readonly config: McpConfig;
  has(server: string): boolean;
  /** The open connection to `server`, opening one when there is none or the last one closed. */
  connect(server: string): Promise<McpConnection>;
  /** Drops a connection that failed, so the next call opens a new one. */
  discard(connection: McpConnection): Promise<void>;
  close(): Promise<void>;
}

/**
 * One connection per server per worker, opened on first use. A connection whose transport
 * closed is replaced on the next `connect`; callers discard one that failed mid-call.
 */
export function createMcpPool(
  config: McpConfig,
  clientInfo = { name: 'thoughtline', version: '1' },
  /** Where `auth` reads its secrets; the worker's environment. */
  env: Environment = process.env,
): McpPool {
  const open = new Map<string, Promise<McpConnection>>();

  async function dial(server: string, settings: McpServerConfig): Promise<McpConnection> {
    let closed = false;
    let stderr = '';
    const transport: Transport =
      'command' in settings
        ? new (mcpStdioClient().StdioClientTransport)({
            command: settings.command,
            args: settings.args,
            env: { ...mcpStdioClient().getDefaultEnvironment(), ...settings.env },
            ...(settings.cwd ? { cwd: settings.cwd } : {}),
            stderr: 'pipe',
          })
        : new (mcpHttpClient().StreamableHTTPClientTransport)(new URL(settings.url), {
            requestInit: { headers: settings.headers },
            ...(settings.auth ? { fetch: authorizedFetch(server, settings.auth, env) } : {}),
          });
    if (transport instanceof mcpStdioClient().StdioClientTransport) {
      transport.stderr?.on(
        'data',
        (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS)),
      );
    }
    const client = new (mcpClient().Client)(clientInfo, { capabilities: { elicitation: {} } });
    const calls = new Set<ElicitHandler>();
    client.setRequestHandler(mcpTypes().ElicitRequestSchema, async (request) => {
      const only = calls.size === 1 ? [...calls][0] : undefined;
      return only ? await only(request.params) : { action: 'cancel' };
    });
    client.onclose = () => {
      closed = true;
      void open.get(server)?.then(
        (c) => c.client === client && open.delete(server),
        () => undefined,
      );
    };
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (err) {
      await client.close().catch(() => undefined);
      throw new McpUnavailableError(
        server,
        `could not connect: ${(err as Error).message}${stderr ? `; its stderr: ${stderr.trim()}` : ''}`,
      );
    }
    const pid = transport instanceof mcpStdioClient().StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    return {
      server,
      client,
      pid,
      taskTools: undefined,
      isOpen: () => !closed,
      stderrTail: () => stderr.trim(),
      whileCalling(onElicit) {
        calls.add(onElicit);
        return () => calls.delete(onElicit);
      },
    };
  }

  return {
    config,
    has: (server) => Object.hasOwn(config.mcpServers, server),
    async connect(server) {
      const settings = Object.hasOwn(config.mcpServers, server) ? config.mcpServers[server] : undefined;
      if (!settings) throw new McpUnavailableError(server, "no such server in this worker's MCP config");
      const current = open.get(server);
      if (current) {
        const connection = await current.catch(() => undefined);
        if (connection?.isOpen()) return connection;
        if (open.get(server) === current) open.delete(server);
      }
      const dialing = dial(server, settings);
      open.set(server, dialing);
      // A failed dial is not kept: the next call (the activity's retry) dials again.
      dialing.catch(() => open.get(server) === dialing && open.delete(server));
      return dialing;
    },
    async discard(connection) {
      const current = open.get(connection.server);
      if (current && (await current.catch(() => undefined)) === connection) open.delete(connection.server);
      await connection.client.close().catch(() => undefined);
    },
    async close() {
      const all = [...open.values()];
      open.clear();
      await Promise.all(
        all.map((p) =>
          p
            .then(
              (c) => c.client.close(),
              () => undefined,
            )
            .catch(() => undefined),
        ),
      );
    },
  };
}

/** The server could not be reached or went away: a retryable failure (the retry dials again). */
export class McpUnavailableError extends Error {
  override readonly name = 'McpUnavailableError';
  constructor(
    readonly server: string,
    reason: string,
  ) {
    super(`MCP server "${server}" is unavailable: ${reason}`);
  }
}
