import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTool } from '../../src/activities/models/scripted-model';
import { SCRIPTED_MODEL } from '../helpers/scripted-input';
import { useTestEnv } from '../helpers/temporal-env';
import { testTools } from '../helpers/test-tools';
import { launchChromium } from '../viewer/headless-chromium';
import { routedModel, startServerHarness, type ServerHarness } from './server-harness';

const env = useTestEnv();
const model = routedModel();
let s: ServerHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const pages: http.Server[] = [];
let allowedPage: string;
let otherPage: string;

/** A page of its own origin: another port on this machine, as a front end on another host would be. */
async function servePage(): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>front end</title><p>front end</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pages.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  allowedPage = await servePage();
  otherPage = await servePage();
  s = await startServerHarness(env, { tools: testTools().tools, model, server: { allowOrigins: [allowedPage] } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  for (const page of pages) page.close();
});

/** What a page on `origin` gets from calling the API with the developer's token: the body, or the error fetch throws. */
async function fromPage(
  origin: string,
  script: (api: string, token: string, model: unknown) => Promise<unknown>,
): Promise<unknown> {
  const page = await browser.context.newPage();
  try {
    await page.goto(`${origin}/`);
    const args = [s.server.url, s.tokens.dev, SCRIPTED_MODEL].map((a) => JSON.stringify(a)).join(', ');
    return await page.evaluate(`(${script.toString()})(${args})`);
  } finally {
    await page.close();
  }
}

describe('serve --allow-origin', () => {
  it('lets a page on an allowed origin read the API and follow a run’s event stream with its token', async () => {
    model.script('cors', [{ content: [useTool('finish', { result: 'from another origin' })] }]);
    const me = await fromPage(allowedPage, async (api, token) => {
      const response = await fetch(`${api}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      return response.json();
    });
    expect(me).toMatchObject({ roles: ['developer'], tenant: 'acme' });

    // A JSON POST with a token is preflighted; the stream's head is written raw and must carry the headers too.
    const streamed = await fromPage(allowedPage, async (api, token, model) => {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const body = JSON.stringify({ task: 'cors: answer', model });
      const started = (await (await fetch(`${api}/v1/runs`, { method: 'POST', headers, body })).json()) as {
        links: { events: string };
      };
      const response = await fetch(`${api}${started.links.events}`, {
        headers: { authorization: `Bearer ${token}`, 'last-event-id': '0' },
      });
      const reader = response.body!.getReader();
      let text = '';
      while (!text.includes('from another origin')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await reader.cancel();
      return { status: response.status, type: response.headers.get('content-type'), text };
    });
    expect(streamed).toMatchObject({ status: 200, type: expect.stringContaining('text/event-stream') });
    expect((streamed as { text: string }).text).toContain('from another origin');
  });

  it('gives a page on any other origin nothing it can read', async () => {
    const refused = await fromPage(otherPage, async (api, token) => {
      try {
        await fetch(`${api}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
        return 'read';
      } catch (err) {
        return (err as Error).name;
      }
    });
    expect(refused).toBe('TypeError');
  });

  it('answers preflights for the allowed origin only, and names no origin to the others', async () => {
    const preflight = (origin: string) =>
      fetch(`${s.server.url}/v1/runs`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    const allowed = await preflight(allowedPage);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(allowedPage);
    expect(allowed.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    const other = await preflight(otherPage);
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(await other.json()).toMatchObject({ error: { code: 'forbidden' } });

    // A request with no preflight is answered as ever, but only the allowed origin is named.
    const plain = await fetch(`${s.server.url}/v1/me`, {
      headers: { origin: otherPage, authorization: `Bearer ${s.tokens.dev}` },
    });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Origin');
  });
});
