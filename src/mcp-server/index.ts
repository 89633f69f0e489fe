export { createMcpServer, GET_RUN_TOOL } from './create-mcp-server';
export { startMcpHttp, type McpHttpOptions, type RunningMcpHttp } from './mcp-http';
export { reserveStdoutForMcp, serveMcpStdio } from './mcp-stdio';
export { stdioIdentity, StdioIdentityError } from './stdio-identity';
export { createRunFollowerHub } from './run-follower-hub';
export type { FollowDeps } from './follow-run';
