import net from 'node:net';

/**
 * Temporal's membership table stores ports as smallint, so a server role on a port above 32767
 * cannot join the cluster; the ports the OS hands out for port 0 (32768–60999 on Linux) never do.
 */
export const MAX_CLUSTER_PORT = 32767;
/** Below this sit well-known ports, and 7233/8233 of the dev server and the compose stack. */
const MIN_CLUSTER_PORT = 20000;

export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** `count` distinct loopback ports between 20000 and 32767 that nobody listens on right now (another process may take one later). */
export async function freePortsBelow32768(count: number): Promise<number[]> {
  const ports = new Set<number>();
  for (let tries = 0; ports.size < count; tries += 1) {
    if (tries > count * 50)
      throw new Error(`found only ${ports.size} of ${count} free ports in ${MIN_CLUSTER_PORT}–${MAX_CLUSTER_PORT}`);
    const port = MIN_CLUSTER_PORT + Math.floor(Math.random() * (MAX_CLUSTER_PORT - MIN_CLUSTER_PORT + 1));
    if (!ports.has(port) && (await isPortFree(port))) ports.add(port);
  }
  return [...ports];
}
