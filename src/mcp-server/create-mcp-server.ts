import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type {
  CallToolRequest,
  CallToolResult,
  CreateTaskResult,
  ServerNotification,
  ServerRequest,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { mcpServer, mcpTaskInterfaces, mcpTypes } from '../activities/mcp/mcp-sdk';
import { packageVersion } from '../deployment/worker-version';
import { thrownText } from '../tools/redact-secrets';
import type { Identity } from '../server/auth/identity';
import type { CatalogAgent } from '../server/catalog/agent-catalog';
import { AGENT_TOOL_INPUT_SCHEMA, GET_RUN_INPUT_SCHEMA } from './agent-tool-input';
import type { Elicit } from './elicit-decisions';
import { endedContent, followRun, type CallChannel, type FollowDeps } from './follow-run';
import { getRun, runIdOfUri } from './get-run';
import { startAgentRun } from './start-agent-run';
import { createTemporalTaskStore, TASK_POLL_INTERVAL_MS } from './temporal-task-store';
import { errorContent, runResourceUri } from './run-result-content';

const textOf = (result: CallToolResult): string =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

/** The tool that reads a run by id: its status while it runs, its answer once it ended. */
export const GET_RUN_TOOL = 'get_run';

/** How long the server waits for a person to answer one elicitation; then the run is left to decide elsewhere. */
const ELICIT_TIMEOUT_MS = 60 * 60 * 1_000;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const INSTRUCTIONS =
  'Each tool but get_run is a Thoughtline agent: call it with { task } and it runs durably on Temporal, ' +
  'reporting its steps as progress and asking you (elicitation) when a call needs approval or it has a question. ' +
  'Every call names its run id first; get_run { runId } (or the resource thoughtline://runs/{runId}) fetches the answer later.';

const agentTool = (agent: CatalogAgent): Tool => ({
  name: agent.name,
  description: agent.description,
  inputSchema: AGENT_TOOL_INPUT_SCHEMA as unknown as Tool['inputSchema'],
  execution: { taskSupport: 'optional' },
});

const getRunTool: Tool = {
  name: GET_RUN_TOOL,
  description:
    'A run an agent tool started, by its run id: what it does and waits for while it runs, its answer once it ended (after a disconnect too).',
  inputSchema: GET_RUN_INPUT_SCHEMA as unknown as Tool['inputSchema'],
  annotations: { readOnlyHint: true },
};

/**
 * One MCP server for one caller (an HTTP session, or the stdio process): `caller` gives who sends
 * the request being handled, as authenticated for that request (a session's roles are never
 * those of its first request). A tool per catalogue
 * agent plus `get_run`, the resource template `thoughtline://runs/{runId}`, and the Tasks
 * extension with a Temporal-backed store. Built on the SDK's low-level `Server` so that a plain
 * `tools/call` follows the run's event stream itself, where `McpServer.registerToolTask` would
 * poll the task store on a timer.
 */
export function createMcpServer(deps: FollowDeps, caller: () => Identity): Server {
  // The SDK is an optional peer, required on the first server made (mcp-sdk.ts).
  const { Server } = mcpServer();
  const { isTerminal } = mcpTaskInterfaces();
  const {
    CallToolRequestSchema,
    ElicitResultSchema,
    ErrorCode,
    GetTaskPayloadRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ListToolsRequestSchema,
    McpError,
    ReadResourceRequestSchema,
    RELATED_TASK_META_KEY,
  } = mcpTypes();
  const { ctx } = deps;
  const store = createTemporalTaskStore(ctx, caller);
  const server = new Server(
    { name: 'thoughtline', version: packageVersion() },
    {
      capabilities: {
        tools: {},
        resources: {},
        logging: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore: store,
      instructions: INSTRUCTIONS,
    },
  );

  const channelOf = (extra: Extra): CallChannel => {
    const token = extra._meta?.progressToken;
    const elicitation = server.getClientCapabilities()?.elicitation;
    const elicit: Elicit | undefined =
      elicitation && (elicitation.form !== undefined || Object.keys(elicitation).length === 0)
        ? (params) =>
            extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema, {
              timeout: ELICIT_TIMEOUT_MS,
              signal: extra.signal,
            })
        : undefined;
    return {
      signal: extra.signal,
      ...(token !== undefined ? { progressToken: token } : {}),
      sendNotification: (n) => extra.sendNotification(n),
      ...(elicit ? { elicit } : {}),
    };
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...ctx.catalog.list().map(agentTool), getRunTool],
  }));

  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra): Promise<CallToolResult | CreateTaskResult> => {
      const name = String(request.params.name).slice(0, 128);
      let result: CallToolResult | CreateTaskResult;
      try {
        result = await callTool(request.params, extra);
      } catch (err) {
        // A failure of ours (Temporal unreachable…) is a tool error result; its details stay in the log.
        deps.log(`mcp-server: ${name} failed: ${thrownText(err)}`);
        result = errorContent(`The call could not be completed now (${name}); try again, or get_run by run id.`);
      }
      // A task-augmented call that started nothing has no task to return: the refusal is the request's error.
      if (request.params.task && !('task' in result))
        throw new McpError(ErrorCode.InvalidParams, textOf(result as CallToolResult));
      return result;
    },
  );

  const callTool = async (
    params: CallToolRequest['params'],
    extra: Extra,
  ): Promise<CallToolResult | CreateTaskResult> => {
    const { name, arguments: args } = params;
    if (name === GET_RUN_TOOL) return getRun(ctx, caller(), args);
    const agent = ctx.catalog.get(name);
    if (!agent)
      return errorContent(
        `No tool "${String(name).slice(0, 128)}": the tools are ${[...ctx.catalog.list().map((a) => a.name), GET_RUN_TOOL].join(', ')}.`,
      );
    const started = await startAgentRun(deps, caller(), agent, args);
    if ('refused' in started) return started.refused;
    const { runId } = started;
    await extra
      .sendNotification({
        method: 'notifications/message',
        params: { level: 'info', logger: 'thoughtline', data: { runId, message: `run ${runId} started` } },
      })
      .catch(() => undefined);
    if (params.task) {
      store.started(runId);
      const now = new Date().toISOString();
      return {
        task: {
          taskId: runId,
          status: 'working',
          createdAt: now,
          lastUpdatedAt: now,
          ttl: null,
          pollInterval: TASK_POLL_INTERVAL_MS,
        },
      };
    }
    return followRun(deps, caller(), runId, channelOf(extra));
  };

  // tasks/result: waits on the run itself (its stream and one long-poll), putting its approvals
  // and questions to the client on the way, instead of the SDK's loop over tasks/get.
  server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
    const { taskId } = request.params;
    const task = await store.getTask(taskId);
    if (!task) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
    const result = isTerminal(task.status)
      ? await endedContent(ctx, caller(), taskId)
      : await followRun(deps, caller(), taskId, channelOf(extra));
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'thoughtline://runs/{runId}',
        name: 'run',
        title: 'An agent run',
        description: "A run's status while it runs, its answer and cost once it ended (JSON).",
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const runId = runIdOfUri(request.params.uri);
    if (!runId) throw new McpError(ErrorCode.InvalidParams, 'Resources are thoughtline://runs/{runId}.');
    const read = await getRun(ctx, caller(), { runId });
    // A refusal (not found, bad id) has no structured content; a failed run's ending has, and is read.
    if (read.isError && !read.structuredContent)
      throw new McpError(
        ErrorCode.InvalidParams,
        String(read.content[0]?.type === 'text' ? read.content[0].text : 'not found'),
      );
    return {
      contents: [
        {
          uri: runResourceUri(runId),
          mimeType: 'application/json',
          text: JSON.stringify({
            text: read.content[0]?.type === 'text' ? read.content[0].text : '',
            ...read.structuredContent,
          }),
        },
      ],
    };
  });
  return server;
}
