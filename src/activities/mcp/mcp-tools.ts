import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  DEFAULT_MCP_TASK_WAIT_MS,
  type ElicitationRequest,
  type McpTaskRef,
  type ToolInvocation,
  type ToolSpec,
} from '../../domain';
import { splitMcpName, type McpConfig } from '../../domain/tools/mcp-config';
import { ToolError } from '../../tools/tool-error';
import { decideElicitation } from './mcp-elicitation';
import type { Environment } from './mcp-http-auth';
import { createMcpPool, McpUnavailableError, type McpConnection, type McpPool } from './mcp-pool';
import { mcpObservation } from './mcp-result';
import { mcpTypes } from './mcp-sdk';
import { mcpProgressUpdate } from './mcp-progress';
import type { ToolProgressUpdate } from '../../domain/tools/tool-progress';
import { isOfferable, mcpToolSpec } from './mcp-tool-spec';
import { cancelToolTask, pollToolTask, startToolTask, takesTasks, type McpTaskStep } from './mcp-task-calls';

/** Most tools taken from one server, and pages of its list read. */
export const MAX_MCP_TOOLS_PER_SERVER = 500;
/** Most characters of tool specs one server may add to a run's recorded tool list (a payload is at most 2 MiB). */
export const MAX_MCP_SPECS_CHARS_PER_SERVER = 256 * 1024;
const MAX_LIST_PAGES = 20;
const DEFAULT_TIMEOUT_MS = 60_000;

/** What one MCP call gives the tool activity: a result, a question for a person first, or a task to wait on. */
export type McpCallOutcome = { result: unknown } | { needsInput: ElicitationRequest } | { parked: McpTaskRef };

export interface McpCallContext {
  signal: AbortSignal;
  heartbeat(): void;
  /** Where the server's progress notices go as the call's progress (the tool activity's `ctx.progress`); absent: they only keep the call alive. */
  progress?(update: ToolProgressUpdate): void;
}

/** The MCP servers of one worker, as tools: listed for a run, called for its steps. */
export interface McpTools {
  /** Whether a run's tool name belongs to one of these servers (`server__tool` or `server__*`). */
  owns(name: string): boolean;
  /** Every tool of every server. */
  allSpecs(): Promise<ToolSpec[]>;
  /** For each `server__tool` or `server__*` name, in order, the specs it stands for. */
  resolve(names: readonly string[]): Promise<ToolSpec[][]>;
  call(invocation: ToolInvocation, context: McpCallContext): Promise<McpCallOutcome>;
  /** One look at the task a call parked on (tasks/get, and tasks/result when it ended or asks). */
  poll(invocation: ToolInvocation, taskId: string, context: McpCallContext): Promise<McpCallOutcome>;
  /** Cancels the task a call parked on (tasks/cancel); a task that already ended is left alone. */
  cancelTask(toolName: string, taskId: string): Promise<void>;
  /** Closes every connection (stops stdio servers). */
  close(): Promise<void>;
  readonly pool: McpPool;
}

export function createMcpTools(
  config: McpConfig,
  /** Where a server's `auth` reads its secrets; the worker's environment. */
  env: Environment = process.env,
): McpTools {
  const pool = createMcpPool(config, undefined, env);
  const servers = Object.keys(config.mcpServers);

  async function listServer(server: string): Promise<ToolSpec[]> {
    const settings = config.mcpServers[server]!;
    const connection = await pool.connect(server);
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES && tools.length < MAX_MCP_TOOLS_PER_SERVER; page++) {
      const listed = await connection.client
        .listTools(cursor ? { cursor } : {})
        .catch((err: unknown) => failed(connection, err));
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    const allowed = settings.thoughtline?.allowTools;
    const offered = tools
      .slice(0, MAX_MCP_TOOLS_PER_SERVER)
      .filter((tool) => isOfferable(server, tool) && (!allowed || allowed.includes(tool.name)));
    // Two tools of one name: which one a call reaches would be the server's choice, so neither is offered.
    const seen = new Set<string>();
    for (const tool of offered) {
      if (seen.has(tool.name))
        throw new ToolError(`MCP server "${server}" offers two tools named "${tool.name}"; neither is offered.`, {
          retryable: false,
        });
      seen.add(tool.name);
    }
    const specs = offered.map((tool) => mcpToolSpec(server, settings, tool));
    const chars = JSON.stringify(specs).length;
    if (chars > MAX_MCP_SPECS_CHARS_PER_SERVER) {
      throw new ToolError(
        `MCP server "${server}" offers ${chars} characters of tool specs; a run records at most ${MAX_MCP_SPECS_CHARS_PER_SERVER}. Name the tools this worker needs in thoughtline.allowTools.`,
        { retryable: false },
      );
    }
    return specs;
  }

  /** Every page of the server's tools/list on this connection, so the SDK knows which tools take tasks. */
  async function listOn(connection: McpConnection): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES && tools.length < MAX_MCP_TOOLS_PER_SERVER; page++) {
      const listed = await connection.client.listTools(cursor ? { cursor } : {});
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /** The server and connection a call of `toolName` reaches, once the worker's allow-list lets it. */
  async function reach(toolName: string): Promise<{ server: string; tool: string; connection: McpConnection }> {
    const { server, tool } = splitMcpName(toolName)!;
    const allowed = config.mcpServers[server]!.thoughtline?.allowTools;
    if (allowed && !allowed.includes(tool))
      throw new ToolError(`MCP tool "${toolName}" is not allowed on this worker.`, { retryable: false });
    return { server, tool, connection: await pool.connect(server) };
  }

  /** A task step as the activity returns it: a result becomes the observation. */
  function outcome(step: McpTaskStep, maxResultChars: number): McpCallOutcome {
    if ('result' in step) return { result: mcpObservation(step.result, maxResultChars) };
    return step;
  }

  /** A failure of the connection itself: dropped, so the retry dials a new one. */
  async function failed(connection: McpConnection, err: unknown): Promise<never> {
    if (
      err instanceof mcpTypes().McpError &&
      err.code !== mcpTypes().ErrorCode.ConnectionClosed &&
      err.code !== mcpTypes().ErrorCode.RequestTimeout &&
      connection.isOpen()
    ) {
      throw new ToolError(`MCP server "${connection.server}" refused: ${err.message}`, { retryable: false });
    }
    await pool.discard(connection);
    const stderr = connection.stderrTail();
    throw new McpUnavailableError(
      connection.server,
      `${(err as Error).message ?? String(err)}${stderr ? `; its stderr: ${stderr.slice(-500)}` : ''}`,
    );
  }

  return {
    pool,
    owns(name) {
      const parts = splitMcpName(name);
      return parts !== undefined && pool.has(parts.server);
    },
    async allSpecs() {
      return (await Promise.all(servers.map(listServer))).flat();
    },
    async resolve(names) {
      const wanted = [...new Set(names.map((n) => splitMcpName(n)!.server))];
      const listed = new Map(await Promise.all(wanted.map(async (s) => [s, await listServer(s)] as const)));
      return names.map((name) => {
        const { server, tool } = splitMcpName(name)!;
        const specs = listed.get(server)!;
        if (tool === '*') return specs;
        const spec = specs.find((s) => s.name === name);
        if (!spec)
          throw new ToolError(
            `MCP server "${server}" offers no tool "${tool}" to this worker. It offers: ${specs.map((s) => s.name).join(', ') || '(none)'}.`,
            { retryable: false },
          );
        return [spec];
      });
    },
    async call(invocation, context) {
      const { server, tool, connection } = await reach(invocation.toolName);
      const settings = config.mcpServers[server]!;
      const tasks = await takesTasks(connection, tool, () => listOn(connection)).catch((err: unknown) =>
        failed(connection, err),
      );
      if (tasks) {
        const waitMs = settings.taskTimeoutMs ?? DEFAULT_MCP_TASK_WAIT_MS;
        const params = { name: tool, arguments: invocation.arguments };
        return startToolTask(connection, params, waitMs, context.signal).then(
          (step) => outcome(step, invocation.maxResultChars),
          (err: unknown) =>
            context.signal.aborted || err instanceof ToolError ? Promise.reject(err) : failed(connection, err),
        );
      }
      const abort = new AbortController();
      const stop = () => abort.abort(context.signal.reason);
      context.signal.addEventListener('abort', stop, { once: true });
      let asked: ElicitationRequest | undefined;
      const release = connection.whileCalling((params) => {
        // One question per call: what a flood asks after the first is cancelled, never asked of a person.
        if (asked) return { action: 'cancel' };
        const step = decideElicitation(server, invocation.toolName, params, invocation.elicitation ?? []);
        if (step.kind === 'answer') return step.result;
        if (step.kind === 'refuse') return { action: 'decline' };
        // The call ends here; the run asks a person and calls again with the answer.
        asked = step.request;
        setImmediate(() => abort.abort(new Error('The server asked for input; the run asks a person.')));
        return { action: 'cancel' };
      });
      try {
        const result = await connection.client.callTool({ name: tool, arguments: invocation.arguments }, undefined, {
          signal: abort.signal,
          timeout: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          // Progress keeps a slow call alive, but never past the tool's timeout: endless progress is a hang.
          maxTotalTimeout: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          onprogress: (notice) => {
            context.heartbeat();
            context.progress?.(mcpProgressUpdate(notice));
          },
        });
        if (asked) return { needsInput: asked };
        return { result: mcpObservation(result as Parameters<typeof mcpObservation>[0], invocation.maxResultChars) };
      } catch (err) {
        if (asked) return { needsInput: asked };
        if (context.signal.aborted || err instanceof ToolError) throw err;
        if (isInvalidContent(err))
          throw new ToolError(
            `MCP tool "${invocation.toolName}" returned content that is not a valid MCP result: ${(err as Error).message.slice(0, 500)}`,
            { retryable: false },
          );
        return failed(connection, err);
      } finally {
        release();
        context.signal.removeEventListener('abort', stop);
      }
    },
    async poll(invocation, taskId, context) {
      const { server, connection } = await reach(invocation.toolName);
      const waitMs = config.mcpServers[server]!.taskTimeoutMs ?? DEFAULT_MCP_TASK_WAIT_MS;
      try {
        const answers = invocation.elicitation ?? [];
        const step = await pollToolTask(
          connection,
          server,
          invocation.toolName,
          taskId,
          waitMs,
          answers,
          context.signal,
        );
        return outcome(step, invocation.maxResultChars);
      } catch (err) {
        if (context.signal.aborted || err instanceof ToolError) throw err;
        return failed(connection, err);
      }
    },
    async cancelTask(toolName, taskId) {
      const { connection } = await reach(toolName);
      await cancelToolTask(connection, taskId).catch((err: unknown) => failed(connection, err));
    },
    close: () => pool.close(),
  };
}

/** The SDK checks results against the protocol's schema and throws zod's error when they do not fit. */
function isInvalidContent(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.name === 'ZodError' ||
      err.name === '$ZodError' ||
      (err instanceof mcpTypes().McpError &&
        err.code === mcpTypes().ErrorCode.InvalidParams &&
        /result/i.test(err.message)))
  );
}
