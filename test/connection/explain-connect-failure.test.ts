import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { explainConnectFailure, TemporalConnectionError } from '../../src/connection';

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const withCode = (code: number, message: string): Error => Object.assign(new Error(message), { code });

describe('explainConnectFailure: what it leaves alone and what it says without a TLS server', () => {
  it('keeps an answer the server gave (PERMISSION_DENIED, NOT_FOUND) as it was: the server said its piece', async () => {
    for (const err of [withCode(7, 'namespace access denied'), withCode(5, 'namespace not found')])
      expect(await explainConnectFailure({ address: '127.0.0.1:1', apiKey: 'k' }, err)).toBe(err);
  });

  it('UNAUTHENTICATED names TEMPORAL_API_KEY, never its value; without a key, what to set', async () => {
    const refused = withCode(16, 'Request unauthorized.');
    const withKey = await explainConnectFailure({ address: 'a.example:7233', apiKey: 'sk-secret-value' }, refused);
    expect(withKey).toBeInstanceOf(TemporalConnectionError);
    expect((withKey as Error).message).toBe(
      'cannot connect to Temporal at a.example:7233: the server refused the API key: check TEMPORAL_API_KEY (current, not revoked, and allowed in this namespace)',
    );
    expect((withKey as Error).cause).toBe(refused);
    const without = await explainConnectFailure({ address: 'a.example:7233' }, refused);
    expect((without as Error).message).toContain(
      'the server requires credentials: set TEMPORAL_API_KEY (Temporal Cloud), or TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH',
    );
  });

  it('a port nothing listens on: check TEMPORAL_ADDRESS', async () => {
    const address = `127.0.0.1:${await closedPort()}`;
    const explained = await explainConnectFailure(
      { address, tls: true },
      new Error('Failed to connect before the deadline'),
    );
    expect((explained as Error).message).toBe(
      `cannot connect to Temporal at ${address}: nothing accepts connections there: check TEMPORAL_ADDRESS, and that the server runs`,
    );
  });
});
