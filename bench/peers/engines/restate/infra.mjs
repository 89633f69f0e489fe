import fs from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { startRestateServer } from './start-server.mjs';

/**
 * Runs `fn(server)` against the runner's restate-server (request.infra.restate) when given,
 * else against one started here under infra.workDir and stopped afterwards.
 */
export async function withServer(request, fn) {
  const given = request.infra?.restate;
  if (given?.ingress && given?.admin) return fn(given);
  const workDir = request.infra?.workDir ?? os.tmpdir();
  fs.mkdirSync(workDir, { recursive: true });
  const server = await startRestateServer({ workDir });
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

/** Letters and digits only: a service name no other engine script or run will reuse. */
export const uniqueServiceName = () => `BenchAgent${randomUUID().replace(/-/g, '').slice(0, 12)}`;
