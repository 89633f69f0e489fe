import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunFeed, RunFeedState } from '../../../src/react/run-feed';
import { ThoughtlineClient } from '../../../src/react/thoughtline-client';

/**
 * A run's feed (what useChain, useRun and useApprovals share) against a real HTTP event stream in
 * Node (fetch and web streams as in a browser): the steps it keeps, at its bound; a repeat
 * ignored; a drop resumed with Last-Event-ID; a refusal not retried; an event past its bound.
 */
const requests: Array<{ url: string; lastEventId: string; authorization: string }> = [];
const step = (n: number) =>
  `event: step\nid: ${n}\ndata: ${JSON.stringify({ type: 'step', chainStatus: 'thinking', stepNumber: n, step: { stepNumber: n, type: 'thinking', thought: `thought ${n}` } })}\n\n`;
const delta = (id: string, offset: number, text: string) =>
  `event: text_delta\nid: ${id}\ndata: ${JSON.stringify({ type: 'text_delta', activityId: 'a1', attempt: 1, kind: 'text', offset, text })}\n\n`;
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const lastEventId = String(req.headers['last-event-id'] ?? '');
    requests.push({ url: req.url!, lastEventId, authorization: String(req.headers.authorization ?? '') });
    if (req.url === '/v1/runs/missing/events') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { code: 'not_found', message: 'No run missing.' } }));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (req.url === '/v1/runs/big/events') return res.end(step(1));
    if (lastEventId === '') {
      // Steps 1-3, a repeat of 2, text of the reply in progress (a repeat and a new piece), then a drop.
      res.write(
        step(1) +
          step(2) +
          step(2) +
          step(3) +
          delta('3.1', 0, 'Hello ') +
          delta('3.2', 0, 'Hello ') +
          delta('3.3', 6, 'world'),
      );
      setTimeout(() => res.socket?.destroy(), 100);
      return;
    }
    res.end(
      step(3) +
        step(4) +
        step(5) +
        `event: end\nid: 5.1\ndata: ${JSON.stringify({ type: 'end', chainStatus: 'completed', stepNumber: 5, outcome: 'completed' })}\n\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function watch(runId: string, limits: Partial<ThoughtlineClient['limits']> = {}) {
  const client = new ThoughtlineClient({ baseUrl: base, token: 'tl_feed', limits });
  return client.watch(runId);
}

function until(feed: RunFeed, done: (s: RunFeedState) => boolean): Promise<RunFeedState> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`feed stuck at ${JSON.stringify(feed.snapshot())}`)), 10_000);
    const check = () => {
      if (!done(feed.snapshot())) return;
      clearTimeout(timer);
      stop();
      resolve(feed.snapshot());
    };
    const stop = feed.subscribe(check);
    check();
  });
}

describe('thoughtline/react: a run feed', () => {
  it('keeps each step once, at most maxSteps (the newest), and resumes a drop with Last-Event-ID', async () => {
    const { feed, release } = watch('r1', { maxSteps: 3 });
    const text = await until(feed, (s) => s.liveText === 'Hello world');
    expect(text.steps.map((s) => s.stepNumber)).toEqual([1, 2, 3]);
    const ended = await until(feed, (s) => s.stream === 'ended');
    expect(ended.steps.map((s) => s.stepNumber)).toEqual([3, 4, 5]);
    expect(ended).toMatchObject({ droppedSteps: 2, chainStatus: 'completed', outcome: 'completed', liveText: '' });
    expect(requests.filter((r) => r.url === '/v1/runs/r1/events')).toEqual([
      { url: '/v1/runs/r1/events', lastEventId: '', authorization: 'Bearer tl_feed' },
      { url: '/v1/runs/r1/events', lastEventId: '3.3', authorization: 'Bearer tl_feed' },
    ]);
    release();
  });

  it('stops at a refusal retrying cannot fix, with the server’s coded error', async () => {
    const { feed, release } = watch('missing');
    const failed = await until(feed, (s) => s.stream === 'failed');
    expect(failed.error).toMatchObject({ status: 404, code: 'not_found', message: 'No run missing.' });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(requests.filter((r) => r.url === '/v1/runs/missing/events')).toHaveLength(1);
    release();
  });

  it('reads an event of maxEventChars, and fails the stream on one past it', async () => {
    // The bound counts an event's data lines with their line breaks.
    const size = step(1).split('\n')[2]!.length - 'data: '.length + 1;
    const at = watch('big', { maxEventChars: size });
    expect((await until(at.feed, (s) => s.steps.length === 1)).error).toBeUndefined();
    at.release();
    const over = watch('big', { maxEventChars: size - 1 });
    expect((await until(over.feed, (s) => s.stream === 'failed')).error).toMatchObject({ code: 'event_too_large' });
    over.release();
  });
});
