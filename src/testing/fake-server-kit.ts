import type { IncomingMessage, Server } from 'node:http';

/** What both fake model servers share: reading bodies, failing loudly, and closing promptly. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Throws with every harness error, and with the script entries nobody asked for. */
export function verifyScript<T>(
  serverName: string,
  errors: readonly string[],
  script: readonly T[],
  describe: (entry: T) => string,
): void {
  const problems = [...errors];
  if (script.length > 0) {
    problems.push(`${serverName}: ${script.length} script entries left unused: ${script.map(describe).join('; ')}`);
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

/** Ends pending delayed replies and keep-alive sockets (fetch keeps them), then closes. Idempotent. */
export function closeServer(server: Server, pendingWaits: Set<() => void>): Promise<void> {
  if (!server.listening) return Promise.resolve();
  for (const endWait of [...pendingWaits]) endWait();
  server.closeAllConnections();
  return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
}
