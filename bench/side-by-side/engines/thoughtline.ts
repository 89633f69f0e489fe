import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from '../../../src/dev-server/project-paths';
import { BENCH_MODEL } from '../../lib/bench-worker';
import { runHistories } from '../../lib/run-histories';
import { loadPeerLib } from './peer-loop-lib';
import { loopSystemPrompt, type LoopSettings } from './thoughtline-loop';
import { installQuietRuntime } from '../../lib/bench-context';
import { bundlePathFor, loopClient, loopWorker, type TemporalInfra } from './thoughtline-setup';
import type { AgentClient } from '../../../src/client/agent-client';
import type { AgentInputInit } from '../../../src/domain';

/**
 * Thoughtline as one engine of `npm run bench:peers`: `agentWorkflow` running the shared loop
 * script (bench/peers/engines/README.md), worker and client in this process but for `recover`,
 * whose worker is a child process (thoughtline-worker.ts).
 */
interface Request {
  scenario: string;
  runs?: number;
  iterations: number;
  /** The loop's unmeasured warm-up run: this many iterations (default: as many as the measured runs). */
  warmupIterations?: number;
  modelDelayMs?: number;
  observationBytes?: number;
  marksDir?: string;
  killAt?: number;
  slowToolMs?: number;
  infra: { temporal: TemporalInfra; workDir: string };
}

const ENGINE = 'thoughtline';

/**
 * The state scenario's model sees the whole conversation, as every other engine's does: its context
 * limit (150,000 characters by default, about 37.5k tokens) is past the longest state run (85
 * iterations of 10 KB, about 0.9 M characters), and no observation is cut (8,000 characters by
 * default). Its stored bytes then include whatever a conversation of that size costs Thoughtline.
 */
const untrimmed = (observationBytes: number): Partial<AgentInputInit> => ({
  maxContextChars: 4_000_000,
  maxToolResultChars: 2 * observationBytes,
});

async function main(): Promise<void> {
  const lib = await loadPeerLib();
  installQuietRuntime();
  const version = `thoughtline ${JSON.parse(fs.readFileSync(path.join(findProjectRoot(), 'package.json'), 'utf8')).version}`;

  /** A worker and client on a fresh queue, for the length of `fn`. */
  async function withLoop<T>(
    request: Request,
    seen: Map<string, number>,
    fn: (agents: AgentClient, answer: string) => Promise<T>,
  ): Promise<T> {
    const infra = request.infra.temporal;
    const settings: LoopSettings = {
      script: lib.script,
      // No marks dir (state, concurrent): no marks, as the other engines write none there.
      marks: request.marksDir ? lib.createMarks(request.marksDir) : { mark: () => {} },
      iterations: request.iterations,
      modelDelayMs: request.modelDelayMs ?? 0,
      observationBytes: request.observationBytes ?? 64,
      seen: (id, tokens) => seen.set(id, Math.max(seen.get(id) ?? 0, tokens)),
    };
    const taskQueue = `bench-peers-thoughtline-${randomUUID()}`;
    const bundle = await bundlePathFor(infra, request.infra.workDir);
    const { worker, connection, close } = await loopWorker(infra, bundle, taskQueue, settings);
    const client = await loopClient(infra, taskQueue, connection);
    try {
      return await worker.runUntil(() => fn(client.agents, lib.script.answerFor(request.iterations)));
    } finally {
      await client.close();
      await close();
    }
  }

  async function runOnce(agents: AgentClient, iterations: number, label: string, limits?: Partial<AgentInputInit>) {
    const id = `thoughtline-${label}-${randomUUID()}`;
    const requestedAt = lib.now();
    const handle = await agents.start(
      {
        task: `Benchmark ${label}`,
        systemPrompt: loopSystemPrompt(iterations),
        model: BENCH_MODEL,
        maxIterations: iterations + 2,
        ...limits,
      },
      { workflowId: id },
    );
    const result = await handle.result();
    return { id, requestedAt, returnedAt: lib.now(), answer: result.finalAnswer };
  }

  const check = (answer: string, expected: string, id: string): void => {
    if (answer !== expected)
      throw new Error(`run ${id} answered ${JSON.stringify(answer)}, not ${JSON.stringify(expected)}`);
  };

  await lib.io.main({
    async loop(raw) {
      const request = raw as unknown as Request;
      const seen = new Map<string, number>();
      return withLoop(request, seen, async (agents, expected) => {
        await runOnce(agents, request.warmupIterations ?? request.iterations, 'warmup');
        const runs = [];
        for (let i = 0; i < (request.runs ?? 1); i++) {
          const run = await runOnce(agents, request.iterations, `run-${i}`);
          check(run.answer, expected, run.id);
          runs.push({ ...run, maxInputTokens: seen.get(run.id) ?? 0 });
        }
        return { engine: ENGINE, version, runs };
      });
    },

    async state(raw) {
      const request = raw as unknown as Request;
      const seen = new Map<string, number>();
      return withLoop(request, seen, async (agents, expected) => {
        const run = await runOnce(agents, request.iterations, 'state', untrimmed(request.observationBytes ?? 64));
        check(run.answer, expected, run.id);
        const described = await agents.getHandle(run.id).describe();
        const histories = await runHistories(agents.client, run.id, described.runId);
        return {
          engine: ENGINE,
          version,
          id: run.id,
          answer: run.answer,
          storedBytes: histories.reduce((sum, h) => sum + h.bytes, 0),
          stored: `Temporal history bytes (protobuf-encoded), summed over ${histories.length} execution(s) of the workflow id`,
          maxInputTokens: seen.get(run.id) ?? 0,
        };
      });
    },

    async recover(raw) {
      const request = raw as unknown as Request;
      return recoverRun(request, lib, version);
    },

    async concurrent(raw) {
      const request = raw as unknown as Request;
      const seen = new Map<string, number>();
      return withLoop(request, seen, async (agents, expected) => {
        const started = lib.now();
        const results = await Promise.all(
          Array.from({ length: request.runs ?? 1 }, (_, i) => runOnce(agents, request.iterations, `c${i}`)),
        );
        const wallMs = lib.now() - started;
        return {
          engine: ENGINE,
          version,
          completed: results.length,
          wrongAnswers: results.filter((r) => r.answer !== expected).length,
          wallMs,
          pids: [],
        };
      });
    },
  });
}

/** The worker in a child process, killed mid-tool and replaced; the client waits here. */
async function recoverRun(request: Request, lib: Awaited<ReturnType<typeof loadPeerLib>>, version: string) {
  const infra = request.infra.temporal;
  const marksDir = request.marksDir ?? path.join(request.infra.workDir, 'marks');
  const bundlePath = await bundlePathFor(infra, request.infra.workDir);
  const taskQueue = `bench-peers-thoughtline-recover-${randomUUID()}`;
  const workerArgs = JSON.stringify({
    temporal: { ...infra, bundlePath },
    taskQueue,
    marksDir,
    iterations: request.iterations,
    modelDelayMs: request.modelDelayMs ?? 0,
    slowAt: request.killAt,
    slowToolMs: request.slowToolMs,
  });
  const startWorker = (): ChildProcess =>
    spawn(process.execPath, [path.join(__dirname, 'thoughtline-worker.js'), workerArgs], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  const first = startWorker();
  const { agents, close } = await loopClient(infra, taskQueue);
  let replacement: ChildProcess | undefined;
  try {
    const id = `thoughtline-recover-${randomUUID()}`;
    await agents.start(
      {
        task: 'Benchmark recover',
        systemPrompt: loopSystemPrompt(request.iterations),
        model: BENCH_MODEL,
        maxIterations: request.iterations + 2,
      },
      { workflowId: id },
    );
    await waitForMark(path.join(marksDir, `${id.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`), request.killAt ?? 1);
    first.kill('SIGKILL');
    const killedAt = lib.now();
    replacement = startWorker();
    const replacementStartedAt = lib.now();
    const result = await agents.getHandle(id).result();
    return { engine: ENGINE, version, id, answer: result.finalAnswer, killedAt, replacementStartedAt };
  } finally {
    first.kill('SIGKILL');
    replacement?.kill('SIGKILL');
    await close();
  }
}

/** Resolves once tool step `index` has started (its start mark is in the run's file). */
async function waitForMark(file: string, index: number): Promise<void> {
  const wanted = (line: string) => {
    const m = JSON.parse(line) as { kind: string; index: number; phase: string };
    return m.kind === 'tool' && m.index === index && m.phase === 'start';
  };
  for (;;) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).some(wanted)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

void main();
