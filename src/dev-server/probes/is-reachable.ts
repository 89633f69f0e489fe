import net from 'node:net';

/** Splits `host:port` (also `[::1]:port`); throws on anything else so typos fail loudly. */
export function parseAddress(address: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address.trim());
  const port = Number(match?.[2]);
  if (!match?.[1] || !Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`not a host:port address: '${address}'`);
  }
  return { host: match[1], port };
}

/** True when a TCP connection to `address` succeeds within `timeoutMs`; never throws for network errors. */
export function isReachable(address: string, timeoutMs = 1000): Promise<boolean> {
  const { host, port } = parseAddress(address);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
