import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentClient } from '../src/client/agent-client';
import { statusQuery } from '../src/workflows/messages';
import type { BenchConfig } from './lib/bench-config';
import type { BenchContext } from './lib/bench-context';
import { measurement, type FigureBody } from './lib/figure';
import { mapLimit } from './lib/map-limit';
import type { PushServerMessage, PushServerSpec } from './lib/push-server';
import type { PushWorkerSpec } from './lib/push-worker';
import { median, p95, summarise } from './lib/stats';
import { pushPlan, STAMP, startTimedMessagesServer } from './lib/timed-messages-server';
import { runLimitMs, within } from './lib/within';

const PUSH_TARGET = { op: '<', value: 100 } as const;
const TOKEN = 'bench-token';
const MODEL = { provider: 'anthropic', model: 'claude-sonnet-4-6' } as const;

interface Child {
  process: ChildProcess;
  next<T>(type: string): Promise<T>;
  stop(): Promise<void>;
}

/** Forks a compiled bench/lib entry with its spec; `next(type)` waits for its next message of that type. */
function startChild(file: string, spec: unknown, execArgv: string[] = []): Child {
  const child = fork(path.join(__dirname, 'lib', file), [JSON.stringify(spec)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
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
  stepMs: number[];
  tokenMs: number[];
  steps: number;
}

/** One SSE client with node:http (no pooling), handing each message's event and data to `onMessage`. */
function openStream(url: string, workflowId: string, onMessage: (event: string, data: string) => void): Promise<{ done: Promise<void>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/v1/runs/${workflowId}/events`, { agent: false, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
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
    });
    req.once('error', reject);
  });
}

/** Runs one agent of `iterations` with `watchers` SSE clients, each measuring what reaches it. */
async function watchOneRun(agents: AgentClient, url: string, watchers: number, iterations: number): Promise<Watched> {
  const handle = await agents.start({ task: 'Push benchmark', systemPrompt: pushPlan(iterations), model: MODEL, maxIterations: iterations + 3 });
  const stepMs: number[] = [];
  const tokenMs: number[] = [];
  let steps = 0;
  const streams = await Promise.all(
    Array.from({ length: watchers }, async () => {
      const openedAt = Date.now();
      return openStream(url, handle.workflowId, (event, data) => {
        const now = Date.now();
        if (event === 'step') {
          const { step } = JSON.parse(data) as { step: { timestamp: string } };
          const at = Date.parse(step.timestamp);
          steps += 1;
          // Only steps made while this client watched: catch-up steps measure the connect, not the push.
          if (at >= openedAt) stepMs.push(now - at);
        } else if (event === 'text_delta') {
          const { text } = JSON.parse(data) as { text: string };
          for (const m of text.matchAll(STAMP)) tokenMs.push(now - Number(m[1]));
        }
      });
    }),
  );
  await within(Promise.all(streams.map((s) => s.done)), runLimitMs(iterations), `watching push run ${handle.workflowId}`);
  return { stepMs, tokenMs, steps: steps / watchers };
}

/** Opens `count` streams over `runs` idle runs and reads the server's memory before and after. */
async function idleStreams(ctx: BenchContext, agents: AgentClient, server: Child, url: string, count: number, runs: number) {
  ctx.log(`push: ${runs} runs waiting on a question, then ${count} idle streams to them`);
  const handles = await Promise.all(Array.from({ length: runs }, () => agents.start({ task: 'Idle push run', systemPrompt: pushPlan(0, true), model: MODEL, maxIterations: 3, allowQuestions: true })));
  for (const handle of handles) {
    for (const deadline = Date.now() + 60_000; ; ) {
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
  const warm = await Promise.all(handles.map((h) => openStream(url, h.workflowId, () => {})));
  await sleep(2_000);
  const before = await memory();
  const opened = await mapLimit(count - warm.length, 200, (i) => openStream(url, handles[i % runs]!.workflowId, () => {}));
  for (const deadline = Date.now() + 120_000; (await memory()).watchers < count; ) {
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
 * Figure 3b: how fast `serve` pushes a run to SSE watchers, with the worker and the server in
 * separate processes (and the watchers and the model in this one), and what an open stream costs
 * the server. Model text: the timed Messages server writes each piece as its send time; the
 * worker posts deltas to the server as they stream. Steps: no step publisher is merged yet, so
 * they reach the server through its safety net (a status poll about once a second).
 */
export async function measurePush(ctx: BenchContext, config: BenchConfig): Promise<FigureBody> {
  const o = config.push;
  const taskQueue = `bench-push-${randomUUID()}`;
  const model = await startTimedMessagesServer(o.gapMs);
  const serverSpec: PushServerSpec = { address: ctx.server.address, namespace: ctx.server.namespace, taskQueue, token: TOKEN };
  const server = startChild('push-server.js', serverSpec, ['--expose-gc']);
  const children: Child[] = [server];
  try {
    const { url } = await server.next<{ url: string }>('ready');
    const workerSpec: PushWorkerSpec = { address: ctx.server.address, namespace: ctx.server.namespace, taskQueue, bundlePath: ctx.bundlePath, modelBaseUrl: model.baseUrl, eventsUrl: `${url}/bench/events` };
    const worker = startChild('push-worker.js', workerSpec);
    children.push(worker);
    await worker.next('ready');
    const agents = new AgentClient({ client: ctx.client, taskQueue });
    ctx.log('push: a warm-up run');
    await watchOneRun(agents, url, 1, 2);
    const watched: Array<Watched & { watchers: number }> = [];
    for (const watchers of o.watchers) {
      ctx.log(`push: a ${o.iterations}-iteration run with ${watchers} SSE watcher(s)`);
      watched.push({ watchers, ...(await watchOneRun(agents, url, watchers, o.iterations)) });
    }
    const idle = await idleStreams(ctx, agents, server, url, o.idleStreams, o.idleRuns);
    return {
      measurements: [
        ...watched.flatMap((w) => [
          measurement(`step -> SSE client p50, ${w.watchers} watcher(s)`, median(w.stepMs), 'ms', { note: 'safety net: no step publisher merged yet' }),
          measurement(`step -> SSE client p95, ${w.watchers} watcher(s)`, p95(w.stepMs), 'ms', { target: PUSH_TARGET, note: 'safety net: no step publisher merged yet' }),
          measurement(`token -> SSE client p50, ${w.watchers} watcher(s)`, median(w.tokenMs), 'ms'),
          measurement(`token -> SSE client p95, ${w.watchers} watcher(s)`, p95(w.tokenMs), 'ms', { target: PUSH_TARGET }),
        ]),
        measurement(`server RSS per open stream (${idle.streams} streams)`, idle.rssPerStreamBytes / 1024, 'KiB'),
        measurement(`server heap per open stream (${idle.streams} streams)`, idle.heapPerStreamBytes / 1024, 'KiB'),
      ],
      details: {
        processes: 'this process: dev server client, timed Messages server, SSE clients; child 1: the events server (memory bus); child 2: the agent worker (Anthropic provider at the timed server)',
        stepClock: 'receive time (Date.now here) - step.timestamp (the workflow time of the task that recorded it); one machine, one clock',
        tokenClock: 'receive time - the moment the timed Messages server wrote the piece (Date.now in this process); one clock',
        stepPath: 'the worker publishes no steps (no step publisher in main yet): steps reach the server through its safety net, describe + status query about once a second',
        tokenPath: 'worker onModelDelta -> POST /bench/events (a stand-in for /v1/internal/events) -> memory bus -> each watcher',
        watched: watched.map((w) => ({ watchers: w.watchers, stepsPerWatcher: w.steps, step: summarise(w.stepMs), token: summarise(w.tokenMs) })),
        idle: { runs: o.idleRuns, ...idle },
        settings: o,
      },
    };
  } finally {
    for (const child of children.reverse()) await child.stop();
    await model.close();
  }
}
