import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { isReachable } from '../../src/dev-server';
import { parseAddress } from '../../src/dev-server/probes/is-reachable';

describe('isReachable', () => {
  it('is true for a listening port and false once it is closed', async () => {
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    expect(await isReachable(`127.0.0.1:${port}`)).toBe(true);
    await new Promise((resolve) => server.close(resolve));
    expect(await isReachable(`127.0.0.1:${port}`, 500)).toBe(false);
  });

  it('parses host:port forms and rejects malformed addresses', () => {
    expect(parseAddress('localhost:7233')).toEqual({ host: 'localhost', port: 7233 });
    expect(parseAddress('[::1]:7233')).toEqual({ host: '::1', port: 7233 });
    expect(() => parseAddress('localhost')).toThrow(/not a host:port/);
    expect(() => parseAddress('h:99999')).toThrow(/not a host:port/);
  });
});
