import { requireOptionalPeers } from '../../packaging/optional-peers';

type Types = typeof import('@modelcontextprotocol/sdk/types.js');
type ClientModule = typeof import('@modelcontextprotocol/sdk/client/index.js');
type StdioClient = typeof import('@modelcontextprotocol/sdk/client/stdio.js');
type HttpClient = typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
type ServerModule = typeof import('@modelcontextprotocol/sdk/server/index.js');
type StdioServer = typeof import('@modelcontextprotocol/sdk/server/stdio.js');
type HttpServer = typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');
type TaskInterfaces = typeof import('@modelcontextprotocol/sdk/experimental/tasks/interfaces.js');

const FEATURE = 'MCP (a worker\u2019s `mcp` servers, `--mcp`, `thoughtline mcp-server`)';

/**
 * The MCP SDK's modules, each required on first use: the SDK is an optional peer (with express,
 * hono and their kind, 17 MB a default install leaves out), so a worker with no MCP server and a
 * CLI that never serves MCP load none of it. OptionalPeerMissingError names the install command.
 */
const sdk = <T>(load: () => T): T => requireOptionalPeers(FEATURE, ['@modelcontextprotocol/sdk'], load);

export const mcpTypes = (): Types => sdk(() => require('@modelcontextprotocol/sdk/types.js') as Types);
export const mcpClient = (): ClientModule =>
  sdk(() => require('@modelcontextprotocol/sdk/client/index.js') as ClientModule);
export const mcpStdioClient = (): StdioClient =>
  sdk(() => require('@modelcontextprotocol/sdk/client/stdio.js') as StdioClient);
export const mcpHttpClient = (): HttpClient =>
  sdk(() => require('@modelcontextprotocol/sdk/client/streamableHttp.js') as HttpClient);
export const mcpServer = (): ServerModule =>
  sdk(() => require('@modelcontextprotocol/sdk/server/index.js') as ServerModule);
export const mcpStdioServer = (): StdioServer =>
  sdk(() => require('@modelcontextprotocol/sdk/server/stdio.js') as StdioServer);
export const mcpHttpServer = (): HttpServer =>
  sdk(() => require('@modelcontextprotocol/sdk/server/streamableHttp.js') as HttpServer);
export const mcpTaskInterfaces = (): TaskInterfaces =>
  sdk(() => require('@modelcontextprotocol/sdk/experimental/tasks/interfaces.js') as TaskInterfaces);
