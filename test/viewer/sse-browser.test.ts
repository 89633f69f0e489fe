import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerViewerRoute } from '../../src/server/routes/viewer-route';
import { launchChromium } from './headless-chromium';

/**
 * The viewer's stream reader (viewer/sse.js) in Chromium against a real HTTP event stream that
 * drops its first connection mid-way: the reader must send the bearer token, resume with the
 * last id it saw, and stop at `end`. The run page's own stream is covered by viewer-browser.
 */
let app: FastifyInstance;
let url: string;
let browser: Awaited<ReturnType<typeof launchChromium>>;
const connections: Array<{ authorization?: string; lastEventId?: string }> = [];
let dropFirst = (): void => undefined;

beforeAll(async () => {
  app = Fastify();
  registerViewerRoute(app);
  app.get('/stream', (request, reply) => {
    const authorization = request.headers.authorization;
    const lastEventId = request.headers['last-event-id'] as string | undefined;
    connections.push({ ...(authorization ? { authorization } : {}), ...(lastEventId ? { lastEventId } : {}) });
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (connections.length === 1) {
      // Split mid-message and mid-CRLF, then drop the connection without an end event.
      res.write(': ping\n\nevent: step\nid: 1\ndata: {"n":1}\r');
      setTimeout(() => res.write('\n\r\nevent: text_delta\nid: 1.1\ndata: {"text":"a\\nb"}\n\n'), 20);
      // Dropped once the page has both events (it asks for /drop), not after a fixed time: a
      // busy machine could otherwise drop the connection before Chromium reads them.
      dropFirst = () => res.socket?.destroy();
      return;
    }
    res.write('event: step\nid: 2\ndata: {"n":2}\n\nevent: end\nid: 2.1\ndata: {"outcome":"completed"}\n\n');
  });
  app.get('/drop', async () => (dropFirst(), 'dropped'));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('viewer/sse.js in Chromium', () => {
  it('sends the token, resumes after a drop with Last-Event-ID, and stops at end', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${url}/viewer/index.html`);
    // A string, not a function: vitest would rewrite a function's import() for node.
    const seen = (await page.evaluate(`(async () => {
      sessionStorage.setItem('thoughtline.token', 'tl_stream_token');
      const { followEvents } = await import('/viewer/sse.js');
      return new Promise((resolve) => {
        const events = [];
        followEvents('/stream', { onEvent: (m) => { events.push(m); if (m.id === '1.1') fetch('/drop'); }, onState: (state) => state === 'ended' && resolve(events) });
      });
    })()`)) as Array<{ event: string; id: string; data: string }>;
    expect(seen).toEqual([
      { event: 'step', id: '1', data: '{"n":1}' },
      { event: 'text_delta', id: '1.1', data: '{"text":"a\\nb"}' },
      { event: 'step', id: '2', data: '{"n":2}' },
      { event: 'end', id: '2.1', data: '{"outcome":"completed"}' },
    ]);
    expect(connections).toEqual([
      { authorization: 'Bearer tl_stream_token' },
      { authorization: 'Bearer tl_stream_token', lastEventId: '1.1' },
    ]);
    await page.close();
  });
});
