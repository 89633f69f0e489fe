import { PassThrough, type Writable } from 'node:stream';
import { mcpStdioServer } from '../activities/mcp/mcp-sdk';
import type { Identity } from '../server/auth/identity';
import { createMcpServer } from './create-mcp-server';
import type { FollowDeps } from './follow-run';

/**
 * Keeps stdout for MCP alone: returns a stream that writes to the real stdout, and sends every
 * other write to stdout (a library's console.log, a worker's notice) to stderr instead, so no
 * stray line ever corrupts the client's JSON-RPC stream. Call before anything else starts.
 */
export function reserveStdoutForMcp(): Writable {
  const write = process.stdout.write.bind(process.stdout);
  const out = new PassThrough();
  out.on('data', (chunk: Buffer) => write(chunk));
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return out;
}

/**
 * `mcp-server` over stdio: one MCP server for the one local client, as `identity` (see
 * stdioIdentity), writing to `out` (reserveStdoutForMcp). `closed` resolves when the client goes.
 */
export async function serveMcpStdio(
  deps: FollowDeps,
  identity: Identity,
  out: Writable,
): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  const server = createMcpServer(deps, () => identity);
  const transport = new (mcpStdioServer().StdioServerTransport)(process.stdin, out);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
