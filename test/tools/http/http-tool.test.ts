import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalNeeded } from '../../../src/shared/approval/approval-policy';
import { addressRefusal } from '../../../src/tools/builtin/http/address-guard';
import { createHttpTool, type HttpToolOptions } from '../../../src/tools/builtin/http';
import { ToolError } from '../../../src/tools/tool-error';

const context = { idempotencyKey: 'wf:1', signal: new AbortController().signal, heartbeat: () => undefined };

describe('http_fetch', () => {
  let server: http.Server;
  let port = 0;
  const seen: Array<{ url: string; host: string | undefined }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', host: req.headers.host });
      if (req.url === '/big') return res.end('x'.repeat(100_000));
      if (req.url === '/to-elsewhere') return res.writeHead(302, { location: 'http://evil.example.net/steal' }).end();
      if (req.url === '/to-self') return res.writeHead(302, { location: `http://127.0.0.1:${port}/hello` }).end();
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'session=secret' }).end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** This test's server is on loopback, so its tools open the guard for loopback explicitly. */
  const local = (extra: Partial<HttpToolOptions> = {}) => createHttpTool({ allowHosts: ['127.0.0.1'], allowPorts: [port], allowPrivate: true, ...extra });
  const fetchWith = (tool: ReturnType<typeof createHttpTool>, args: Record<string, unknown>) => tool.execute(tool.input.parse(args), context);

  it('fetches from an allowed host, showing the status, the main headers and the body, never cookies', async () => {
    const out = await fetchWith(local(), { url: `http://127.0.0.1:${port}/hello` });
    expect(out).toMatchObject({ status: 200, body: 'hello', truncated: false, headers: { 'content-type': 'text/plain' } });
    expect(out.headers['set-cookie']).toBeUndefined();
  });

  it('refuses the cloud metadata address and any host that resolves to loopback, after DNS', async () => {
    const guarded = createHttpTool({ allowHosts: ['169.254.169.254', 'internal.example.com', '[::ffff:127.0.0.1]'], resolveHost: async () => [{ address: '127.0.0.1', family: 4 }] });
    await expect(fetchWith(guarded, { url: 'http://169.254.169.254/latest/meta-data/' })).rejects.toThrow(/169\.254\.169\.254 is a linkLocal address/);
    await expect(fetchWith(guarded, { url: 'http://internal.example.com/' })).rejects.toThrow(/internal\.example\.com is refused: 127\.0\.0\.1 is a loopback address/);
    await expect(fetchWith(guarded, { url: 'http://[::ffff:127.0.0.1]/' })).rejects.toThrow(/loopback/);
    expect(seen.some((s) => s.host === 'internal.example.com')).toBe(false);
  });

  it('refuses a host not on the list, a port, a scheme and credentials in the URL', async () => {
    const tool = local();
    await expect(fetchWith(tool, { url: 'http://evil.example.net/' })).rejects.toThrow(/not an allowed host/);
    await expect(fetchWith(tool, { url: `http://127.0.0.1:${port + 1}/` })).rejects.toThrow(/port .* not allowed/);
    await expect(fetchWith(tool, { url: 'file:///etc/passwd' })).rejects.toThrow(/only http and https/);
    await expect(fetchWith(tool, { url: `http://user:pw@127.0.0.1:${port}/` })).rejects.toThrow(/credentials/);
    await expect(fetchWith(tool, { url: `http://127.0.0.1:${port}/`, headers: { Authorization: 'Bearer x' } })).rejects.toThrow(/Header "Authorization" is not allowed/);
  });

  it('checks every redirect like the first request, and stops at the redirect limit', async () => {
    await expect(fetchWith(local(), { url: `http://127.0.0.1:${port}/to-elsewhere` })).rejects.toThrow(/A redirect goes to evil\.example\.net, which is not an allowed host/);
    expect(await fetchWith(local(), { url: `http://127.0.0.1:${port}/to-self` })).toMatchObject({ status: 200, body: 'hello', redirects: [`http://127.0.0.1:${port}/hello`] });
    await expect(fetchWith(local({ maxRedirects: 3 }), { url: `http://127.0.0.1:${port}/loop` })).rejects.toThrow(/Stopped after 3 redirects/);
  });

  it('reads at most maxResponseBytes of the body, and says it cut', async () => {
    const out = await fetchWith(local({ maxResponseBytes: 1_000 }), { url: `http://127.0.0.1:${port}/big` });
    expect(out.truncated).toBe(true);
    expect(out.body).toHaveLength(1_000);
  });

  it('connects to the address it checked, whatever the name is', async () => {
    const pinned = local({ allowHosts: ['app.test'], resolveHost: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect(await fetchWith(pinned, { url: `http://app.test:${port}/hello` })).toMatchObject({ status: 200, body: 'hello' });
    expect(seen.at(-1)).toEqual({ url: '/hello', host: `app.test:${port}` });
  });

  it('offers only the allowed methods; with writes allowed, a write call needs approval and a read does not', async () => {
    const readOnly = local();
    expect(readOnly.readOnly).toBe(true);
    expect(readOnly.input.safeParse({ url: 'http://127.0.0.1/', method: 'POST' }).success).toBe(false);
    const writing = local({ methods: ['GET', 'POST'] });
    expect(writing.readOnly).toBe(false);
    expect(approvalNeeded(writing.approval, { url: 'http://127.0.0.1/', method: 'POST' }).needed).toBe(true);
    expect(approvalNeeded(writing.approval, { url: 'http://127.0.0.1/', method: 'GET' }).needed).toBe(false);
    await expect(fetchWith(writing, { url: `http://127.0.0.1:${port}/`, method: 'GET', body: 'x' })).rejects.toThrow(ToolError);
  });

  it('lets only public unicast addresses through the guard', () => {
    expect(addressRefusal('93.184.215.14', false)).toBeUndefined();
    expect(addressRefusal('2606:4700::1111', false)).toBeUndefined();
    for (const address of ['10.0.0.1', '172.16.0.1', '192.168.1.1', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '224.0.0.1', '255.255.255.255']) {
      expect(addressRefusal(address, false), address).toBeDefined();
    }
    expect(addressRefusal('not-an-ip', true)).toMatch(/not an IP address/);
  });
});
