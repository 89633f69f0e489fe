import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalNeeded } from '../../../src/domain/approval/approval-policy';
import { createHttpTool, type HttpFetchResult, type HttpToolOptions } from '../../../src/tools/builtin/http';
import { ToolError } from '../../../src/tools/tool-error';
import { refusal, run } from '../files/file-tools-helpers';
import { localServer } from './local-server';

type Server = Awaited<ReturnType<typeof localServer>>;
let server: Server;
/** Requests the server saw, so a refused call can be shown never to have reached it. */
const seen: string[] = [];
/** Set when the endless stream's connection is closed by the client. */
let streamClosed: Promise<void>;
let markStreamClosed: () => void = () => undefined;

beforeAll(async () => {
  server = await localServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/hello') {
      res.setHeader('set-cookie', 'session=secret');
      res.setHeader('x-internal', 'hidden');
      res.setHeader('content-type', 'text/plain');
      res.end(`hello ${req.headers['accept-language'] ?? ''}`);
    } else if (url.pathname === '/bytes') {
      res.end('x'.repeat(Number(url.searchParams.get('n'))));
    } else if (url.pathname === '/endless') {
      res.on('close', () => markStreamClosed());
      const timer = setInterval(() => res.write('y'.repeat(1024)), 5);
      res.on('close', () => clearInterval(timer));
    } else if (url.pathname === '/redirect') {
      res
        .writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to') ?? '/hello' })
        .end();
    } else if (url.pathname === '/loop') {
      const n = Number(url.searchParams.get('n') ?? 0);
      res.writeHead(302, { location: n > 0 ? `/loop?n=${n - 1}` : '/hello' }).end();
    } else if (url.pathname === '/echo') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.end(`${req.method} ${body}`));
    } else if (url.pathname === '/whoami') {
      res.end(req.headers.authorization === 'Bearer s3cret' ? 'has-auth' : 'no-auth');
    } else if (url.pathname === '/slow') {
      // Never answers; the tool's timeout must end the call.
    } else {
      res.writeHead(404).end('no');
    }
  });
});
afterAll(() => server.close());

/** A tool that may reach the local server: loopback opened for 127.0.0.1 only. */
const local = (options: Partial<HttpToolOptions> = {}) =>
  createHttpTool({
    allowHosts: ['127.0.0.1', 'app.test'],
    allowPorts: [server.port],
    allowAddresses: ['127.0.0.1'],
    ...options,
  });

const fetchOk = async (tool: ReturnType<typeof createHttpTool>, args: Record<string, unknown>) =>
  (await run(tool, args)) as HttpFetchResult;

describe('http_fetch definition', () => {
  it('is an external tool, read-only and without approval by default; other methods need approval on the calls that use them', () => {
    const reader = createHttpTool({ allowHosts: ['example.com'] });
    expect(reader).toMatchObject({ name: 'http_fetch', type: 'external', effects: 'none', approval: 'never' });
    const writer = createHttpTool({ allowHosts: ['example.com'], methods: ['GET', 'POST', 'DELETE'] });
    expect(writer.effects).toBe('idempotent');
    expect(approvalNeeded(writer.approval, { url: 'https://example.com/', method: 'POST' }).needed).toBe(true);
    expect(approvalNeeded(writer.approval, { url: 'https://example.com/', method: 'DELETE' }).needed).toBe(true);
    expect(approvalNeeded(writer.approval, { url: 'https://example.com/', method: 'GET' }).needed).toBe(false);
    const locked = createHttpTool({
      allowHosts: ['example.com'],
      overrides: { approval: 'always', requiredRoles: ['ops'] },
    });
    expect(locked).toMatchObject({ approval: 'always', requiredRoles: ['ops'] });
  });

  it('refuses bad options at construction', () => {
    expect(() => createHttpTool({ allowHosts: [] })).toThrow(/at least one host/);
    expect(() => createHttpTool({ allowHosts: ['*.com'] })).toThrow(/two labels/);
    expect(() => createHttpTool({ allowHosts: ['a*.example.com'] })).toThrow(/wildcard/);
    expect(() => createHttpTool({ allowHosts: ['example.com/path'] })).toThrow(/bare host/);
    expect(() => createHttpTool({ allowHosts: ['example.com:8080'] })).toThrow(/bare host/);
    expect(() => createHttpTool({ allowHosts: ['example.com'], allowAddresses: ['not-an-ip'] })).toThrow(
      /allowAddresses/,
    );
    expect(() => createHttpTool({ allowHosts: ['example.com'], maxResponseBytes: 0 })).toThrow(/maxResponseBytes/);
    expect(() => createHttpTool({ allowHosts: ['example.com'], methods: ['TRACE' as 'GET'] })).toThrow(
      /unknown method/,
    );
  });

  it('a method not allowed is rejected by the schema before anything is sent', async () => {
    const before = seen.length;
    await expect(run(local(), { url: server.url('/echo'), method: 'POST', body: 'x' })).rejects.toThrow();
    await expect(run(local(), { url: server.url('/echo'), method: 'get' })).rejects.toThrow();
    expect(seen.length).toBe(before);
  });
});

describe('http_fetch against a local server (loopback opened for this test only)', () => {
  it('GET returns status, body and only the listed headers (no Set-Cookie)', async () => {
    const res = await fetchOk(local(), { url: server.url('/hello'), headers: { 'Accept-Language': 'fr' } });
    expect(res).toMatchObject({ status: 200, body: 'hello fr', truncated: false, redirects: [] });
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers).not.toHaveProperty('set-cookie');
    expect(res.headers).not.toHaveProperty('x-internal');
  });

  it('request headers outside the allow-list (Authorization, Cookie, Host) are refused', async () => {
    for (const name of ['Authorization', 'cookie', 'Host']) {
      expect(await refusal(local(), { url: server.url('/hello'), headers: { [name]: 'v' } })).toMatch(/not allowed/);
    }
    expect(await refusal(local(), { url: server.url('/hello'), headers: { accept: 'a\r\nX-Injected: 1' } })).toMatch(
      /line break/,
    );
  });

  it('hostHeaders are sent to their host only, never shown, and not carried by a redirect to another host', async () => {
    const tool = local({
      hostHeaders: { '127.0.0.1': { Authorization: 'Bearer s3cret' } },
      resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const direct = await fetchOk(tool, { url: server.url('/whoami') });
    expect(direct.body).toBe('has-auth');
    expect(JSON.stringify(direct)).not.toContain('s3cret');
    const moved = await fetchOk(tool, {
      url: server.url(`/redirect?to=${encodeURIComponent(`http://app.test:${server.port}/whoami`)}`),
    });
    expect(moved).toMatchObject({ body: 'no-auth', redirects: [`http://app.test:${server.port}/whoami`] });
    expect(() => local({ hostHeaders: { '127.0.0.1': { 'x-key': 'a\r\nb' } } })).toThrow(/invalid header/);
  });

  it('the response body is cut at maxResponseBytes; exactly at the cap is whole', async () => {
    const tool = local({ maxResponseBytes: 100 });
    expect(await fetchOk(tool, { url: server.url('/bytes?n=100') })).toMatchObject({
      body: 'x'.repeat(100),
      truncated: false,
    });
    const cut = await fetchOk(tool, { url: server.url('/bytes?n=101') });
    expect(cut).toMatchObject({ body: 'x'.repeat(100), truncated: true });
  });

  it('an endless body stops being read at the cap: the connection is closed', async () => {
    streamClosed = new Promise<void>((resolve) => (markStreamClosed = resolve));
    const res = await fetchOk(local({ maxResponseBytes: 4096 }), { url: server.url('/endless') });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(4096);
    await streamClosed; // the test times out if the tool kept the stream open
  });

  it('request bodies: at maxRequestBytes sent, one byte over refused; GET takes none', async () => {
    const tool = local({ methods: ['GET', 'POST'], maxRequestBytes: 10 });
    expect((await fetchOk(tool, { url: server.url('/echo'), method: 'POST', body: '0123456789' })).body).toBe(
      'POST 0123456789',
    );
    expect(await refusal(tool, { url: server.url('/echo'), method: 'POST', body: '0123456789a' })).toMatch(
      /11 bytes; at most 10/,
    );
    expect(await refusal(tool, { url: server.url('/echo'), method: 'GET', body: 'x' })).toMatch(/no body/);
  });

  it('follows redirects within the allow-list, up to maxRedirects', async () => {
    const tool = local({ maxRedirects: 2 });
    const res = await fetchOk(tool, { url: server.url('/loop?n=1') });
    expect(res).toMatchObject({
      status: 200,
      body: 'hello ',
      redirects: [server.url('/loop?n=0'), server.url('/hello')],
    });
    expect(await refusal(tool, { url: server.url('/loop?n=2') })).toMatch(/Stopped after 2 redirects/);
    expect(await refusal(local({ maxRedirects: 0 }), { url: server.url('/loop?n=0') })).toMatch(
      /Stopped after 0 redirects/,
    );
  });

  it('a redirect to a host, scheme or port outside the allow-list is refused and not followed', async () => {
    const tool = local();
    const to = (target: string) => server.url(`/redirect?to=${encodeURIComponent(target)}`);
    expect(await refusal(tool, { url: to('http://evil.test/') })).toMatch(/evil\.test, which is not an allowed host/);
    expect(await refusal(tool, { url: to('file:///etc/passwd') })).toMatch(/uses file:/);
    expect(await refusal(tool, { url: to(`http://127.0.0.1:${server.port + 1}/`) })).toMatch(/port/);
    expect(await refusal(tool, { url: to('http://169.254.169.254/latest/meta-data/') })).toMatch(/not an allowed host/);
  });

  it('a redirect to an allowed name that resolves to a refused address is refused after DNS', async () => {
    // app.test is on the allow-list, but resolves to 127.0.0.2: loopback, and not the opened 127.0.0.1.
    const tool = local({ resolveHost: async () => [{ address: '127.0.0.2', family: 4 }] });
    const before = seen.length;
    const message = await refusal(tool, {
      url: server.url(`/redirect?to=${encodeURIComponent(`http://app.test:${server.port}/hello`)}`),
    });
    expect(message).toMatch(/app\.test is refused: 127\.0\.0\.2 is a loopback address/);
    expect(seen.length).toBe(before + 1); // only the first hop reached a server
  });

  it('the connection goes to the checked address: DNS is asked once and its later answers are never used', async () => {
    let calls = 0;
    // First answer: the local server. Any later answer would point elsewhere (a rebind).
    const resolveHost = async () =>
      calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.255.255.1', family: 4 }];
    const res = await fetchOk(local({ resolveHost }), { url: `http://app.test:${server.port}/hello` });
    expect(res.status).toBe(200);
    expect(calls).toBe(1);
  });

  it('a name with any refused address among its answers is refused', async () => {
    const resolveHost = async () => [
      { address: '127.0.0.1', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    expect(await refusal(local({ resolveHost }), { url: `http://app.test:${server.port}/hello` })).toMatch(
      /10\.0\.0\.5 is a private address/,
    );
  });

  it('a server that never answers ends at timeoutMs', async () => {
    const started = Date.now();
    const err = await run(local({ timeoutMs: 300 }), { url: server.url('/slow') }).catch((e: unknown) => e);
    expect(ToolError.is(err)).toBe(true);
    expect((err as Error).message).toMatch(/cancelled or timed out/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('http_fetch SSRF guard (default: public unicast only)', () => {
  const guarded = (options: Partial<HttpToolOptions> = {}) =>
    createHttpTool({
      allowHosts: [
        '169.254.169.254',
        'localhost',
        'app.test',
        '127.0.0.1',
        '[::1]',
        '[::ffff:127.0.0.1]',
        '[::127.0.0.1]',
        '[64:ff9b::a9fe:a9fe]',
        '[fd00::1]',
        '10.1.2.3',
        '192.168.1.1',
        '0.0.0.0',
      ],
      ...options,
    });

  it('refuses cloud metadata, loopback, private and unique-local literals before connecting', async () => {
    const before = seen.length;
    const cases: Array<[string, RegExp]> = [
      ['http://169.254.169.254/latest/meta-data/', /linkLocal/],
      ['http://127.0.0.1/', /loopback/],
      ['http://[::1]/', /loopback/],
      ['http://[::ffff:127.0.0.1]/', /loopback/],
      [
        'http://[::127.0.0.1]/',
        /carries the IPv4 address 127\.0\.0\.1 \(compatible\), and 127\.0\.0\.1 is a loopback address/,
      ],
      ['http://[64:ff9b::a9fe:a9fe]/', /169\.254\.169\.254 is a linkLocal address/],
      ['http://[fd00::1]/', /uniqueLocal/],
      ['http://10.1.2.3/', /private/],
      ['http://192.168.1.1/', /private/],
      ['http://0.0.0.0/', /unspecified/],
    ];
    for (const [url, reason] of cases) expect(await refusal(guarded(), { url }), url).toMatch(reason);
    expect(seen.length).toBe(before);
  });

  it('refuses localhost (system DNS) and a name a custom resolver points at 127.0.0.1', async () => {
    expect(await refusal(guarded(), { url: 'http://localhost/' })).toMatch(
      /localhost is refused: .* is a loopback address/,
    );
    const resolveHost = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(await refusal(guarded({ resolveHost }), { url: 'http://app.test/' })).toMatch(
      /app\.test is refused: 127\.0\.0\.1 is a loopback address/,
    );
    const mapped = async () => [{ address: '::ffff:169.254.169.254', family: 6 }];
    expect(await refusal(guarded({ resolveHost: mapped }), { url: 'http://app.test/' })).toMatch(/linkLocal/);
  });

  it('allowAddresses opens only the ranges it names', async () => {
    const tool = guarded({ allowAddresses: ['127.0.0.1'], allowPorts: [server.port] });
    expect(await refusal(tool, { url: `http://10.1.2.3:${server.port}/` })).toMatch(/private/);
    expect(await refusal(guarded({ allowAddresses: ['10.0.0.0/8'] }), { url: 'http://127.0.0.1/' })).toMatch(
      /loopback/,
    );
  });

  it('host allow-list: exact names and *.suffix, parsed by the URL parser; other schemes, credentials and ports refused', async () => {
    const tool = createHttpTool({
      allowHosts: ['api.example.com', '*.example.org'],
      resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(await refusal(tool, { url: 'https://example.org/' })).toMatch(/not an allowed host/);
    expect(await refusal(tool, { url: 'https://example.org.evil.test/' })).toMatch(/not an allowed host/);
    expect(await refusal(tool, { url: 'https://evilexample.org/' })).toMatch(/not an allowed host/);
    expect(await refusal(tool, { url: 'https://api.example.com.evil.test/' })).toMatch(/not an allowed host/);
    expect(await refusal(tool, { url: 'https://api.example.com@evil.test/' })).toMatch(
      /not an allowed host|credentials/,
    );
    expect(await refusal(tool, { url: 'https://user:pw@api.example.com/' })).toMatch(/credentials/);
    expect(await refusal(tool, { url: 'ftp://api.example.com/' })).toMatch(/only http and https/);
    expect(await refusal(tool, { url: 'https://api.example.com:8443/' })).toMatch(/port 8443/);
    expect(await refusal(tool, { url: '/relative' })).toMatch(/not a valid absolute URL/);
    // Allowed names pass the allow-list and reach the address guard (which refuses 127.0.0.1 here).
    expect(await refusal(tool, { url: 'https://API.Example.COM/' })).toMatch(/loopback/);
    expect(await refusal(tool, { url: 'https://a.b.example.org/' })).toMatch(/loopback/);
  });
});
