import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentClient } from '../src/client/agent-client';
import { statusQuery } from '../src/workflows/messages';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { startBrowserWatcher, type BrowserWatcher } from './lib/browser-watcher';
import { measurement, type FigureBody } from './lib/figure';
import { mapLimit } from './lib/map-limit';
import { STREAMS_PER_PERSON } from './lib/push-caps';
import type { PushServerMessage, PushServerSpec } from './lib/push-server';
import type { PushWorkerSpec } from './lib/push-worker';
import { median, p95, summarise } from './lib/stats';
import { pushPlan, STAMP, startTimedMessagesServer } from './lib/timed-messages-server';
import { runLimitMs, within } from './lib/within';

const PUSH_TARGET = { op: '<', value: 100 } as const;
const MODEL = { provider: 'anthropic', model: 'claude-sonnet-4-6' } as const;

interface Child {
  process: ChildProcess;
  next<T>(type: string): Promise<T>;
  stop(): Promise<void>;
}

/** Forks a compiled bench/lib entry with its spec; `next(type)` waits for its next message of that type. */
function startChild(file: string, spec: unknown, execArgv: string[] = []): Child {
  const child = fork(path.join(__dirname, 'lib', file), [JSON.stringify(spec)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    next: <T>(type: string) =>
      new Promise<T>((resolve, reject) => {
        const onMessage = (m: { type?: string }): void => {
          if (m?.type !== type) return;
          child.off('message', onMessage);
          resolve(m as T);
        };
        child.on('message', onMessage);
        child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before sending ${type}`)));
      }),
    async stop() {
      if (child.exitCode === null && child.connected) child.send('stop');
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

interface Watched {
  /** The node clients' samples (all but the browser). */
  stepMs: number[];
  tokenMs: number[];
  /** The browser's. */
  browser: { stepMs: number[]; tokenMs: number[]; steps: number };
  /** Events in the run's history: the same for 1 and 50 watchers when watching adds nothing. */
  historyEvents: number;
}

/** One SSE client with node:http (no pooling), handing each message's event and data to `onMessage`. */
function openStream(
  url: string,
  token: string,
  workflowId: string,
  onMessage: (event: string, data: string) => void,
): Promise<{ done: Promise<void>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${url}/v1/runs/${workflowId}/events`,
      { agent: false, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`events stream answered ${res.statusCode}`));
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) onMessage(event, data);
          }
        });
        const done = new Promise<void>((r) => res.once('close', () => r()));
        resolve({ done, close: () => req.destroy() });
      },
    );
    req.once('error', reject);
  });
}

/** Runs one agent of `iterations` watched by the browser and `watchers - 1` node SSE clients, each measuring what reaches it. */
async function watchOneRun(
  ctx: BenchContext,
  agents: AgentClient,
  url: string,
  token: string,
  browser: BrowserWatcher,
  watchers: number,
  iterations: number,
): Promise<Watched> {
  const handle = await agents.start({
    task: 'Push benchmark',
    systemPrompt: pushPlan(iterations),
    model: MODEL,
    maxIterations: iterations + 3,
  });
  const stepMs: number[] = [];
  const tokenMs: number[] = [];
  await browser.follow(handle.workflowId);
  const streams = await Promise.all(
    Array.from({ length: watchers - 1 }, async () => {
      const openedAt = Date.now();
      return openStream(url, token, handle.workflowId, (event, data) => {
        const now = Date.now();
        if (event === 'step') {
          const at = Date.parse((JSON.parse(data) as { step: { timestamp: string } }).step.timestamp);
          // Only steps made while this client watched: catch-up steps measure the connect, not the push.
          if (at >= openedAt) stepMs.push(now - at);
        } else if (event === 'text_delta') {
          const { text } = JSON.parse(data) as { text: string };
          for (const m of text.matchAll(STAMP)) tokenMs.push(now - Number(m[1]));
        }
      });
    }),
  );
  const limit = runLimitMs(iterations);
  await within(Promise.all(streams.map((s) => s.done)), limit, `watching push run ${handle.workflowId}`);
  const seen = await browser.result(limit);
  const history = await ctx.client.workflow.getHandle(handle.workflowId).fetchHistory();
  return { stepMs, tokenMs, browser: seen, historyEvents: history.events?.length ?? 0 };
}

/**
 * Opens `count` streams over `runs` idle runs and reads the server's memory before and after;
 * stream i is held by person ⌊i / STREAMS_PER_PERSON⌋ of `tokens`, as many people would hold them.
 */
async function idleStreams(
  ctx: BenchContext,
  agents: AgentClient,
  server: Child,
  url: string,
  tokens: readonly string[],
  count: number,
  runs: number,
) {
  const token = (i: number): string => tokens[Math.floor(i / STREAMS_PER_PERSON)]!;
  ctx.log(`push: ${runs} runs waiting on a question, then ${count} idle streams to them`);
  const handles = await Promise.all(
    Array.from({ length: runs }, () =>
      agents.start({
        task: 'Idle push run',
        systemPrompt: pushPlan(0, true),
        model: MODEL,
        maxIterations: 3,
        allowQuestions: true,
      }),
    ),
  );
  for (const handle of handles) {
    for (const deadline = Date.now() + 60_000; ;) {
      const status = await handle.query(statusQuery).catch(() => undefined);
      if (status?.openQuestion) break;
      if (Date.now() > deadline) throw new Error(`idle run ${handle.workflowId} asked no question within 60 s`);
      await sleep(200);
    }
  }
  const memory = async () => {
    server.process.send('memory');
    return server.next<Extract<PushServerMessage, { type: 'memory' }>>('memory');
  };
  // One stream per run first, so the per-run state is in the baseline and the delta is per stream.
  const warm = await Promise.all(handles.map((h, i) => openStream(url, token(i), h.workflowId, () => {})));
  await sleep(2_000);
  const before = await memory();
  const opened = await mapLimit(count - warm.length, 200, (i) =>
    openStream(url, token(warm.length + i), handles[i % runs]!.workflowId, () => {}),
  );
  for (const deadline = Date.now() + 120_000; (await memory()).watchers < count;) {
    if (Date.now() > deadline) throw new Error(`the server did not hold ${count} streams within 120 s`);
    await sleep(500);
  }
  await sleep(2_000);
  const after = await memory();
  for (const s of [...warm, ...opened]) s.close();
  await Promise.all(handles.map((h) => h.terminate('benchmark done')));
  const streams = after.watchers - before.watchers;
  return {
    before,
    after,
    streams,
    rssPerStreamBytes: (after.rssBytes - before.rssBytes) / streams,
    heapPerStreamBytes: (after.heapUsedBytes - before.heapUsedBytes) / streams,
  };
}

/**
 * Figure 3b: how fast `serve` pushes a run to its watchers, with the worker and the server in
 * separate processes (and the watchers and the model in this one), and what an open stream costs
 * the server. One watcher is always a page in Chromium following the stream with the viewer's
 * own sse.js; the others are node:http SSE clients. Model text: the timed Messages server writes
 * each piece as its send time. Steps: the workflow's sink hands each step to the worker's HTTP
 * publisher, which posts it to the server's ingest route.
 */
export async function measurePush(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const o = config.push;
  const taskQueue = `bench-push-${randomUUID()}`;
  const model = await startTimedMessagesServer(o.gapMs);
  const serverSpec: PushServerSpec = {
    address: ctx.server.address,
    namespace: ctx.server.namespace,
    taskQueue,
    viewerDir: path.resolve('viewer'),
    idleStreams: o.idleStreams,
  };
  const server = startChild('push-server.js', serverSpec, ['--expose-gc']);
  const children: Child[] = [server];
  let browser: BrowserWatcher | undefined;
  try {
    const { url, watcherToken, publisherToken, idleTokens } =
      await server.next<Extract<PushServerMessage, { type: 'ready' }>>('ready');
    const workerSpec: PushWorkerSpec = {
      address: ctx.server.address,
      namespace: ctx.server.namespace,
      taskQueue,
      bundlePath: ctx.bundlePath,
      modelBaseUrl: model.baseUrl,
      serverUrl: url,
      publisherToken,
    };
    const worker = startChild('push-worker.js', workerSpec);
    children.push(worker);
    await worker.next('ready');
    browser = await startBrowserWatcher(url, watcherToken);
    const agents = new AgentClient({ client: ctx.client, taskQueue });
    ctx.log('push: a warm-up run');
    await watchOneRun(ctx, agents, url, watcherToken, browser, 2, 2);
    const watched: Array<Watched & { watchers: number }> = [];
    for (const watchers of o.watchers) {
      ctx.log(`push: a ${o.iterations}-iteration run with ${watchers} watcher(s), one of them Chromium`);
      watched.push({
        watchers,
        ...(await watchOneRun(ctx, agents, url, watcherToken, browser, watchers, o.iterations)),
      });
    }
    const idle = await idleStreams(ctx, agents, server, url, idleTokens, o.idleStreams, o.idleRuns);
    const fewest = watched[0]!;
    const most = watched[watched.length - 1]!;
    return {
      measurements: [
        ...watched.flatMap((w) => [
          measurement(`step -> browser p50, ${w.watchers} watcher(s)`, median(w.browser.stepMs), 'ms'),
          measurement(`step -> browser p95, ${w.watchers} watcher(s)`, p95(w.browser.stepMs), 'ms', {
            target: PUSH_TARGET,
          }),
          measurement(`token -> browser p50, ${w.watchers} watcher(s)`, median(w.browser.tokenMs), 'ms'),
          measurement(`token -> browser p95, ${w.watchers} watcher(s)`, p95(w.browser.tokenMs), 'ms', {
            target: PUSH_TARGET,
          }),
          ...(w.watchers > 1
            ? [
                measurement(`step -> SSE client p95, the other ${w.watchers - 1}`, p95(w.stepMs), 'ms', {
                  target: PUSH_TARGET,
                }),
                measurement(`token -> SSE client p95, the other ${w.watchers - 1}`, p95(w.tokenMs), 'ms', {
                  target: PUSH_TARGET,
                }),
              ]
            : []),
        ]),
        measurement(
          `history events with ${most.watchers} watchers / with ${fewest.watchers}`,
          most.historyEvents / fewest.historyEvents,
          'ratio',
          { target: { op: '<=', value: 1 } },
        ),
        measurement(`server RSS per open stream (${idle.streams} streams)`, idle.rssPerStreamBytes / 1024, 'KiB'),
        measurement(`server heap per open stream (${idle.streams} streams)`, idle.heapPerStreamBytes / 1024, 'KiB'),
      ],
      details: {
        processes:
          'this process: dev server client, timed Messages server, node SSE clients, Chromium (its own processes); child 1: the server (createServer: token file, memory bus, ingest route, viewer); child 2: the agent worker (Anthropic provider at the timed server, events published over HTTP)',
        stepClock:
          'receive time (Date.now in the page or here) - step.timestamp (the workflow time of the task that recorded it); one machine, one clock',
        tokenClock:
          'receive time - the moment the timed Messages server wrote the piece (Date.now in this process); one clock',
        stepPath:
          "workflow sink (on the worker, as the workflow task completes) -> the worker's HTTP publisher -> POST /v1/internal/events -> memory bus -> events route -> each watcher",
        tokenPath:
          "the provider's stream -> the worker's HTTP publisher (batched while a request is in flight) -> POST /v1/internal/events -> memory bus -> each watcher",
        browser:
          "Debian's Chromium, headless, one page following /v1/runs/{id}/events with viewer/sse.js (fetch + stream reader, as the viewer's run page)",
        watched: watched.map((w) => ({
          watchers: w.watchers,
          historyEvents: w.historyEvents,
          browser: { steps: w.browser.steps, step: summarise(w.browser.stepMs), token: summarise(w.browser.tokenMs) },
          others: { step: summarise(w.stepMs), token: summarise(w.tokenMs) },
        })),
        idle: { runs: o.idleRuns, ...idle },
        settings: o,
      },
    };
  } finally {
    await browser?.close();
    for (const child of children.reverse()) await child.stop();
    await model.close();
  }
}
