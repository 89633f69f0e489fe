import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aAllowList } from '../../src/activities/a2a/a2a-allow-list';
import { InvalidA2aSettingsError, parseA2aSettings } from '../../src/activities/a2a/a2a-settings';
import { createGuardedFetch } from '../../src/activities/a2a/guarded-fetch';

/**
 * An address the A2A allow-list opens is opened for the host it was opened for, never for every
 * host on the list: a public name on the list whose DNS answers with the loopback address another
 * entry opened (rebinding, or a name its owner points anywhere) reaches nothing. Real HTTP to a
 * real local server; only the resolver is the test's, as DNS would answer.
 */
let server: http.Server;
let port: number;
const hits: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.headers.host}${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Every name resolves to this machine, as a hostile or rebinding DNS answer would. */
const toLoopback = async () => [{ address: '127.0.0.1', family: 4 }];

describe('an IP opened on the A2A allow-list applies only to its host', () => {
  it('an IP literal on the list opens that literal, not a name on the list that resolves to it', async () => {
    const allow = a2aAllowList({ allow: [`http://127.0.0.1:${port}`, `http://agents.example.com:${port}`] });
    const guarded = createGuardedFetch({ allow, resolveHost: toLoopback });
    await expect((await guarded(`http://127.0.0.1:${port}/card.json`)).json()).resolves.toEqual({ ok: true });
    const before = hits.length;
    const refused = await guarded(`http://agents.example.com:${port}/card.json`).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'A2aBoundaryError' });
    expect((refused as Error).message).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(hits.length).toBe(before);
  });

  it('allowAddresses opens per host: the named host reaches its range, another host on the list does not', async () => {
    const allow = a2aAllowList(
      parseA2aSettings({
        allow: [`http://inner.example.com:${port}`, `http://outer.example.com:${port}`],
        allowAddresses: { 'inner.example.com': ['127.0.0.0/8'] },
      }),
    );
    const guarded = createGuardedFetch({ allow, resolveHost: toLoopback });
    await expect((await guarded(`http://inner.example.com:${port}/card.json`)).json()).resolves.toEqual({ ok: true });
    const refused = await guarded(`http://outer.example.com:${port}/card.json`).catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/refused outer\.example\.com: 127\.0\.0\.1 is a loopback address/);
  });

  it('the old shape (one list for every host) is refused with the new one named; a host off the list too', () => {
    const old = () => parseA2aSettings({ allow: ['https://a.example.com'], allowAddresses: ['10.0.0.0/8'] });
    expect(old).toThrow(InvalidA2aSettingsError);
    expect(old).toThrow(/allowAddresses is per host now: \{ "allowAddresses": \{ "agents\.internal\.example"/);
    expect(() => a2aAllowList({ allow: ['https://a.example.com'], allowAddresses: ['10.0.0.0/8'] } as never)).toThrow(
      /allowAddresses is per host now/,
    );
    expect(() =>
      a2aAllowList({ allow: ['https://a.example.com'], allowAddresses: { 'b.example.com': ['10.0.0.0/8'] } }),
    ).toThrow(/names b\.example\.com, which is no host on the allow-list/);
  });
});
